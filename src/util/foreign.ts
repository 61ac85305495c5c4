// Values that come from outside the interpreter — what a tool or a host's hook returns or throws —
// are not trusted to behave: a Proxy's traps may throw, a getter may answer differently on each read,
// an object may have no prototype, a `toString` may throw. These helpers are the only places that
// look at such a value, each look guarded and made once, so nothing foreign escapes as a foreign error.

/** Longest description of a foreign value kept in a message (a tool may throw megabytes). */
const MAX_DESCRIPTION = 2_000;

/**
 * A message for anything thrown: its `message` when it is a non-empty string, else a short text form.
 * Never throws, whatever `thrown` is.
 */
export function describeThrown(thrown: unknown): string {
  if (typeof thrown === 'string') return clip(thrown) || 'an empty error message';
  if (thrown === null || (typeof thrown !== 'object' && typeof thrown !== 'function')) return textOf(thrown);
  const message = readString(thrown, 'message');
  if (message) return clip(message);
  // An Error with an empty (or unreadable) message still has a name worth showing.
  const name = readString(thrown, 'name');
  const text = textOf(thrown);
  return name && (text === '{}' || text === 'a value that cannot be shown') ? clip(name) : text;
}

/**
 * A text form of any value, for messages and for `context.print`: strings as they are, other
 * values as JSON where possible, else `String(value)`. Never throws.
 */
export function textOf(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
    case 'symbol':
      return String(value);
  }
  if (value === null) return 'null';
  try {
    const json = JSON.stringify(value);
    if (typeof json === 'string') return clip(json);
  } catch {
    // not JSON (a cycle, a BigInt inside, a trap that throws): try its own string form
  }
  try {
    const text: unknown = String(value);
    if (typeof text === 'string') return clip(text);
  } catch {
    // nothing left to try
  }
  return 'a value that cannot be shown';
}

/** A property that is a string, read once; undefined when it is not, or when reading it throws. */
function readString(value: object, key: string): string | undefined {
  try {
    const read: unknown = (value as Record<string, unknown>)[key];
    return typeof read === 'string' ? read : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps both ends of a long text: the end often says what went wrong ("... nests deeper than 1000 levels"). */
function clip(text: string): string {
  if (text.length <= MAX_DESCRIPTION) return text;
  const half = MAX_DESCRIPTION / 2;
  return `${text.slice(0, half)} [... ${text.length - 2 * half} characters ...] ${text.slice(-half)}`;
}

/** The `then` method of a promise-like value. */
export type Thenable = (onFulfilled: (value: unknown) => void, onRejected: (error: unknown) => void) => unknown;

/** A `then` method read once from a foreign value, or undefined when it is not a thenable. Throws what a `then` getter throws. */
export function thenOf(value: unknown): Thenable | undefined {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  const then: unknown = (value as { then?: unknown }).then;
  return typeof then === 'function' ? (then as Thenable) : undefined;
}

/**
 * Calls a host's hook (a listener, a logger) whose failure must not disturb the caller: a throw, or
 * a returned promise that rejects later, goes to `onFailure` instead. Never throws.
 */
export function callHook(hook: (...args: never[]) => unknown, args: unknown[], onFailure: (thrown: unknown) => void): void {
  try {
    const answer = Reflect.apply(hook, undefined, args);
    const then = thenOf(answer);
    if (then) Reflect.apply(then, answer, [ignore, (error: unknown) => guarded(onFailure, error)]);
  } catch (thrown) {
    guarded(onFailure, thrown);
  }
}

function guarded(onFailure: (thrown: unknown) => void, thrown: unknown): void {
  try {
    onFailure(thrown);
  } catch {
    // the failure handler itself failed (a logger that throws): nothing more can be done
  }
}

function ignore(): void {}
