// Whether a value is a Proxy. Node's own brand checks (AbortSignal's `aborted` getter, for one) read a
// symbol property, which a Proxy's trap can answer; node:util can tell. The browser twin
// (proxy-browser.ts) answers false: there the brand checks are the engine's own, which no Proxy passes.
// From node:util/types rather than node:util, which would load the rest of util (parseArgs, MIME types)
// at every `import 'nuwa-script'`.
import { isProxy as nodeIsProxy } from 'node:util/types';

export function isProxy(value: unknown): boolean {
  return nodeIsProxy(value);
}
