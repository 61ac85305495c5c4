// The layers of src/ and the one direction they import in (README.md, "How it is built").
// `npm test` runs this (test/layers.test.ts): an import against the order, or any circle of imports
// (type-only imports included: naming a type of an upper layer is depending on it), fails the suite
// with the offending import named.
//
// Each layer may import itself and the layers listed before it, never those after it.
const LAYERS = [
  ['base', '^src/(errors|events)\\.ts$|^src/(util|values)/'],
  ['syntax', '^src/syntax/'],
  ['tools', '^src/tools/'],
  ['runtime', '^src/runtime/'],
  ['check', '^src/check/'],
  ['prompt', '^src/prompt/'],
  ['api', '^src/api/'],
  ['views', '^src/views/'],
  ['providers', '^src/providers/'],
  ['std', '^src/std/'],
  ['stores', '^src/stores/'],
  ['dbos', '^src/dbos/'],
  ['playground', '^src/playground/'],
  ['cli', '^src/cli/'],
  ['entry', '^src/index\\.ts$'],
];

const layerRules = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `layer-${name}`,
  comment: `${name} imports only itself and the layers below it (${LAYERS.slice(0, i).map(([below]) => below).join(', ') || 'none'})`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(i + 1).map(([, above]) => `(${above})`).join('|') },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'no module imports, through any chain, a module that imports it (within a folder too)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'layer-outside-src',
      comment: 'the source imports nothing from the tests, scripts or benchmarks',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|scripts|bench|examples)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
