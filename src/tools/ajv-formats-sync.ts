// ajv-formats, loaded with Ajv (see ajv-sync.ts): what `#ajv-formats` resolves to where Node can
// require() synchronously. Elsewhere it is the package itself.
import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';

const require = createRequire(import.meta.url);

type FormatsPlugin = (ajv: Ajv) => Ajv;

/** The ajv-formats plugin, required when it is first applied. */
export default function addFormats(ajv: Ajv): Ajv {
  const plugin = require('ajv-formats') as FormatsPlugin & { default?: FormatsPlugin };
  return (plugin.default ?? plugin)(ajv);
}
