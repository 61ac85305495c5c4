// The options a host hands to the API (new Interpreter, run, plan, check, registry.execute,
// buildPrompt, loadExecutables, connectMcp, ...) are checked where they come in, before anything
// starts. Each option is read once: a getter cannot show the check one value and the code another,
// and a getter that throws is a bad option like any other. A bad option is a NuwaError of kind
// TypeError that names the option, what it must be, and what it got.
import { NuwaError } from '../errors.js';
import { describeThrown } from './foreign.js';
import { isProxy } from './proxy.js';

/** The `aborted` getter of AbortSignal: it works only on a real signal (a brand check; no Proxy trap runs). */
const abortedGetter = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')!.get!;

export class Options {
  /** The options read so far, each once (made at the first read that must be remembered). */
  private read: Map<string, unknown> | undefined = undefined;
  /** The own options as snapshot() read them: read from the copy from then on. */
  private copied: Record<string, unknown> | undefined = undefined;
  /** snapshot() found a plain object (no Proxy, Object.prototype or null above it): its options are its own. */
  private plain = false;

  private constructor(
    /** How the messages name the call, e.g. `run(script, options)`. */
    readonly where: string,
    private readonly source: object | undefined,
    /** How keys are named in messages: `` for the options themselves, `limits.` for a nested object. */
    private readonly prefix = '',
  ) {}

  /** The options object of `where`: undefined (no options) or an object, else a TypeError. */
  static of(where: string, options: unknown): Options {
    if (options === undefined) return new Options(where, undefined);
    if (options === null || typeof options !== 'object' || isList(options)) {
      throw new NuwaError('TypeError', `${where}: options must be an object, got ${shown(options)}`);
    }
    return new Options(where, options);
  }

  /** The object option `key` as Options of its own (its members named `key.member`). */
  nested(key: string, what = 'an object'): Options {
    const value = this.object(key, what);
    return new Options(this.where, value, value === undefined ? this.prefix : `${this.prefix}${key}.`);
  }

  /** No options were given (undefined): every one is absent, and nothing needs reading. */
  get absent(): boolean {
    return this.source === undefined;
  }

  /** The option `key` as given (undefined when absent), read once. */
  get(key: string): unknown {
    const source = this.source;
    if (source === undefined) return undefined;
    const copied = this.copied;
    if (copied !== undefined) {
      if (Object.hasOwn(copied, key)) return copied[key];
      // Not one of a plain object's own options: absent (what Object.prototype may hold is no option).
      if (this.plain) return undefined;
    }
    const read = (this.read ??= new Map());
    if (read.has(key)) return read.get(key);
    const value = this.readSource(source, key);
    read.set(key, value);
    return value;
  }

  private readSource(source: object, key: string): unknown {
    try {
      return (source as Record<string, unknown>)[key];
    } catch (error) {
      throw new NuwaError('TypeError', `${this.where}: reading the option \`${this.prefix}${key}\` threw: ${describeThrown(error)}`);
    }
  }

  /**
   * Every own option, each read once (including those this version does not know, which are kept
   * as given): a plain copy to keep instead of the host's object. Later reads of them take the copy,
   * so that an Interpreter, which takes one, remembers no option twice (a host may make one per run).
   */
  snapshot(): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    const source = this.source;
    if (source === undefined) return copy;
    let keys: string[];
    try {
      keys = Object.keys(source);
    } catch (error) {
      throw new NuwaError('TypeError', `${this.where}: the options cannot be read: ${describeThrown(error)}`);
    }
    const read = this.read;
    for (const key of keys) {
      const value = read?.has(key) ? read.get(key) : this.readSource(source, key);
      // An own `__proto__` is an option like any other, not the copy's prototype.
      if (key === '__proto__') Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
      else copy[key] = value;
    }
    this.copied = copy;
    this.read = undefined;
    if (!isProxy(source)) {
      const above: unknown = Object.getPrototypeOf(source);
      this.plain = above === Object.prototype || above === null;
    }
    return copy;
  }

  /** A TypeError naming `key`: it must be `what`, and got the value it has. */
  bad(key: string, what: string, value: unknown = this.get(key)): NuwaError {
    return new NuwaError('TypeError', `${this.where}: \`${this.prefix}${key}\` must be ${what}, got ${shown(value)}`);
  }

  /**
   * The option `key` when absent or passing `test`, else a TypeError saying it must be `what` (a
   * function when the words are built: only for the message, not for every option that passes).
   */
  check<T>(key: string, test: (value: unknown) => boolean, what: string | (() => string)): T | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    let ok = false;
    try {
      ok = test(value);
    } catch {
      ok = false;
    }
    if (!ok) throw this.bad(key, typeof what === 'string' ? what : what(), value);
    return value as T;
  }

  function<T extends (...args: never[]) => unknown>(key: string, what = 'a function'): T | undefined {
    return this.check<T>(key, isFunction, what);
  }

  string(key: string): string | undefined {
    return this.check<string>(key, isString, 'a string');
  }

  nonEmptyString(key: string): string | undefined {
    return this.check<string>(key, isNonEmptyString, 'a non-empty string');
  }

  boolean(key: string): boolean | undefined {
    return this.check<boolean>(key, isBoolean, 'true or false');
  }

  /** A number of at least 0 (Infinity allowed: no limit). */
  nonNegative(key: string): number | undefined {
    return this.check<number>(key, isNonNegative, 'a non-negative number');
  }

  /** A number above 0 (Infinity allowed). */
  positive(key: string): number | undefined {
    return this.check<number>(key, isPositive, 'a positive number');
  }

  signal(key = 'signal'): AbortSignal | undefined {
    return this.check<AbortSignal>(key, isAbortSignal, 'an AbortSignal');
  }

  /** One of `choices`. */
  oneOf<T extends string>(key: string, choices: readonly T[]): T | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (!(choices as readonly unknown[]).includes(value)) throw this.bad(key, `one of ${choices.join(', ')}`, value);
    return value as T;
  }

  /** A list of `choices` (a fresh copy). */
  listOf<T extends string>(key: string, choices: readonly T[], what: string): T[] | undefined {
    const list = this.check<unknown[]>(key, isList, what);
    if (list === undefined) return undefined;
    const copy = copyList(list, () => this.bad(key, what, list));
    if (copy.some((item) => !(choices as readonly unknown[]).includes(item))) throw this.bad(key, what, list);
    return copy as T[];
  }

  /** A list of strings (a fresh copy). */
  strings(key: string): string[] | undefined {
    const list = this.check<unknown[]>(key, isList, 'a list of strings');
    if (list === undefined) return undefined;
    const copy = copyList(list, () => this.bad(key, 'a list of strings', list));
    if (copy.some((item) => typeof item !== 'string')) throw this.bad(key, 'a list of strings', list);
    return copy as string[];
  }

  /** An object of name → string (a fresh copy, each entry read once), such as an environment. */
  stringRecord(key: string): Record<string, string> | undefined {
    const what = 'an object of name → string';
    const record = this.check<object>(key, isObject, what);
    if (record === undefined) return undefined;
    const copy: Record<string, string> = {};
    try {
      for (const name of Object.keys(record)) {
        const value: unknown = (record as Record<string, unknown>)[name];
        if (typeof value !== 'string') throw this.bad(`${key}.${name}`, 'a string', value);
        Object.defineProperty(copy, name, { value, enumerable: true, writable: true, configurable: true });
      }
    } catch (error) {
      if (error instanceof NuwaError) throw error;
      throw this.bad(key, what, record);
    }
    return copy;
  }

  /** An object (its members checked by the caller). */
  object(key: string, what: string | (() => string) = 'an object'): object | undefined {
    return this.check<object>(key, isObject, what);
  }

  /**
   * An object of methods such as a logger (`{ debug?, info?, warn?, error? }`): each present one a
   * function, read once and bound to the object, so that a logger class keeps its `this`.
   */
  methods<K extends string>(key: string, names: readonly K[]): Partial<Record<K, (...args: never[]) => unknown>> | undefined {
    const object = this.object(key, () => `an object with the methods ${names.join(', ')}`);
    if (object === undefined) return undefined;
    const members = this.nested(key);
    const bound: Partial<Record<K, (...args: never[]) => unknown>> = {};
    for (const name of names) {
      const method = members.function(name);
      if (method !== undefined) bound[name] = method.bind(object);
    }
    return bound;
  }
}

// The tests of the checks above: made once, not a closure for every option read.
const isFunction = (value: unknown) => typeof value === 'function';
const isString = (value: unknown) => typeof value === 'string';
const isNonEmptyString = (value: unknown) => typeof value === 'string' && value !== '';
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isNonNegative = (value: unknown) => typeof value === 'number' && value >= 0;
const isPositive = (value: unknown) => typeof value === 'number' && value > 0;
const isObject = (value: unknown) => value !== null && typeof value === 'object' && !isList(value);

/**
 * Whether `value` is a real AbortSignal: not a look-alike, and not a Proxy of one (whose traps could
 * answer the brand check and then throw when the run reads the signal). Never throws.
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  if (isProxy(value)) return false;
  try {
    abortedGetter.call(value);
    return true;
  } catch {
    return false;
  }
}

function isList(value: unknown): value is unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false; // a revoked Proxy
  }
}

function copyList(list: unknown[], bad: () => NuwaError): unknown[] {
  try {
    return Array.from(list);
  } catch {
    throw bad();
  }
}

/** A short description of a value the host gave, for messages. Never throws. */
export function shown(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
  }
  if (value === null) return 'null';
  return isList(value) ? 'a list' : 'an object';
}
