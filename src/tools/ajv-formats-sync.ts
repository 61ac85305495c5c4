// ajv-formats, loaded with Ajv (see ajv-sync.ts): what `#ajv-formats` resolves to under Node and in
// bundles made for Node. In browsers it is the package itself.
import { nodeRequire } from '../util/node-require.js';
import type { Ajv } from 'ajv';

type FormatsPlugin = (ajv: Ajv) => Ajv;

/** The ajv-formats plugin, required when it is first applied. */
export default function addFormats(ajv: Ajv): Ajv {
  const plugin = nodeRequire('ajv-formats') as FormatsPlugin & { default?: FormatsPlugin };
  return (plugin.default ?? plugin)(ajv);
}
