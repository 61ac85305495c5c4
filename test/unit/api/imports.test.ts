// The source has no runtime import cycles (type-only imports are fine): modules load in one order,
// and each layer stands on the ones below it (DESIGN.md). Read with the TypeScript parser, so that
// `import type` and `import { type X }` are told apart from imports that load a module.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The modules of src/ that `file` loads at run time. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      const clause = statement.exportClause;
      const typeOnly = clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      if (!typeOnly) specifier = statement.moduleSpecifier;
    }
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      out.push(path.resolve(path.dirname(file), specifier.text.replace(/\.js$/, '.ts')));
    }
  }
  return out;
}

describe('imports', () => {
  it('no runtime import cycle through the tool layer, the providers or the hosts', () => {
    const graph = new Map(sourceFiles(srcDir).map((file) => [file, runtimeImports(file)]));
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(file)), file].map((f) => path.relative(srcDir, f)).join(' → '));
        return;
      }
      state.set(file, 'visiting');
      stack.push(file);
      for (const next of graph.get(file) ?? []) visit(next);
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file);
    const checked = ['tools', 'providers', 'cli', 'util', 'errors.ts', 'index.ts'];
    expect(cycles.filter((cycle) => cycle.split(' → ').some((file) => checked.includes(file.split(path.sep)[0]!)))).toEqual([]);
  });

  it('the registry does not load the code that carries out a call, except through detached.ts', () => {
    const imports = runtimeImports(path.join(srcDir, 'tools', 'registry.ts')).map((f) => path.relative(srcDir, f));
    expect(imports).not.toContain(path.join('tools', 'invoke.ts'));
    expect(imports).not.toContain(path.join('tools', 'context.ts'));
    expect(imports).not.toContain(path.join('tools', 'guard.ts'));
    for (const lower of ['invoke.ts', 'context.ts', 'guard.ts']) {
      expect(runtimeImports(path.join(srcDir, 'tools', lower)).map((f) => path.basename(f))).not.toContain('registry.ts');
    }
  });
});
