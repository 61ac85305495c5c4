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
}

export function define(name: string, minArgs: number, maxArgs: number, usage: string, summary: string, call: Builtin['call']): Builtin {
  return { name, minArgs, maxArgs, usage, summary, call };
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
