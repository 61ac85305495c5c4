// Whether a value is a Proxy. Node's own brand checks (AbortSignal's `aborted` getter, for one) read a
// symbol property, which a Proxy's trap can answer; node:util can tell. The browser twin
// (proxy-browser.ts) answers false: there the brand checks are the engine's own, which no Proxy passes.
import { types } from 'node:util';

export function isProxy(value: unknown): boolean {
  return types.isProxy(value);
}
