// What every built-in shares: its declaration (name, arity, usage line, one-line summary), the host
// it runs against, and the argument checks that raise FunctionArgumentError with the usage line, so
// the author of a script sees how to call it.
import { NuwaError, type Position } from '../errors.js';
import { describe, NuwaList, NuwaObject, type Value, type ValueLimits } from '../values/values.js';

/** What a built-in may ask of the running script. */
export interface BuiltinHost {
  print(text: string, at: Position): void;
  /** The limits every value a built-in builds must respect, and the run's clock (`charge`). */
  readonly valueLimits: ValueLimits;
  /** NOW(): the clock, or a durable run's recorded time when it replays. */
  now(): number;
}

export interface Builtin {
  readonly name: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  /** How to call it, e.g. `SLICE(list | string, start, end?)`; quoted in argument errors. */
  readonly usage: string;
  /** One line on what it yields, for prompts and help. */
  readonly summary: string;
  call(args: Value[], host: BuiltinHost, at: Position): Value;
  /**
   * A heavy built-in's work as steps (a generator that charges the run's clock as it goes and
   * pauses between chunks; suspend.ts): the evaluator runs these, `call` runs them to their end.
   */
  readonly steps?: (args: Value[], host: BuiltinHost, at: Position) => Generator<void, Value, void>;
  /** Whether these arguments are big enough for `steps`; smaller ones take `call`, in one go. */
  readonly big?: (args: Value[]) => boolean;
}

export function define(name: string, minArgs: number, maxArgs: number, usage: string, summary: string, call: Builtin['call']): Builtin {
  return { name, minArgs, maxArgs, usage, summary, call };
}

/**
 * A heavy built-in: `call` does small input in one go (most calls: no generator to pay for), `steps`
 * big input (as `big` decides), pausing between chunks. Both give the same values and errors.
 */
export function withSteps(builtin: Builtin, big: NonNullable<Builtin['big']>, steps: NonNullable<Builtin['steps']>): Builtin {
  return { ...builtin, big, steps };
}

/** Whether a value is big enough to be written or walked in steps. */
export function bigValue(value: Value | undefined): boolean {
  return typeof value === 'object' && value !== null ? value.totalItems >= 4096 || value.totalChars >= CHUNK : typeof value === 'string' && value.length >= CHUNK;
}

/** Characters (or items) a heavy built-in handles between two pauses; shorter input is done in one go. */
export const CHUNK = 64 * 1024;
/** Units of work between two reports to the run's clock. */
const CHARGE_UNITS = 4096;

/**
 * The work of a heavy built-in as it goes: reported to the run's clock every few thousand units
 * (items, or sixteen characters), where a passed deadline stops the run; `add` answers true every
 * CHUNK units, where the built-in's steps pause.
 */
export class Progress {
  private pending = 0;
  private sincePause = 0;
  private readonly limits: ValueLimits;

  constructor(host: BuiltinHost) {
    this.limits = host.valueLimits; // charge is called on it: a run's is its method (tools/run.ts)
  }

  add(units: number): boolean {
    this.pending += units;
    if (this.pending < CHARGE_UNITS) return false;
    this.limits.charge?.(this.pending);
    this.sincePause += this.pending;
    this.pending = 0;
    if (this.sincePause < CHUNK) return false;
    this.sincePause = 0;
    return true;
  }
}

export function argumentError(usage: string, message: string, at: Position): NuwaError {
  return new NuwaError('FunctionArgumentError', `${message} (usage: ${usage})`, at);
}

/** The argument checks of one built-in: each names the built-in and quotes its usage. */
export class Args {
  constructor(
    private readonly name: string,
    private readonly usage: string,
    private readonly at: Position,
  ) {}

  fail(message: string): NuwaError {
    return argumentError(this.usage, message, this.at);
  }

  number(value: Value, what = 'a number'): number {
    if (typeof value === 'number') return value;
    throw this.fail(`${this.name} expects ${what}, got ${describe(value)}`);
  }

  integer(value: Value, what: string): number {
    const n = this.number(value, what);
    if (Number.isSafeInteger(n)) return n;
    throw this.fail(`${this.name} expects ${what}, got ${n}`);
  }

  string(value: Value, what = 'a string'): string {
    if (typeof value === 'string') return value;
    throw this.fail(`${this.name} expects ${what}, got ${describe(value)}`);
  }

  nonEmptyString(value: Value, what: string): string {
    const text = this.string(value, what);
    if (text !== '') return text;
    throw this.fail(`${this.name} expects ${what}, got an empty string`);
  }

  list(value: Value, what = 'a list'): NuwaList {
    if (value instanceof NuwaList) return value;
    throw this.fail(`${this.name} expects ${what}, got ${describe(value)}`);
  }

  object(value: Value, what = 'an object'): NuwaObject {
    if (value instanceof NuwaObject) return value;
    throw this.fail(`${this.name} expects ${what}, got ${describe(value)}`);
  }
}

/** Reports work on `length` characters to the run's clock (about 16 characters a unit). */
export function chargeChars(host: BuiltinHost, length: number): void {
  if (length >= 4096) host.valueLimits.charge?.(length >>> 4);
}
