// The browser twin of proxy.ts: a browser's brand checks are the engine's own, which no Proxy passes,
// so nothing needs to be told apart before them.

export function isProxy(_value: unknown): boolean {
  return false;
}
