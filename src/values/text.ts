// The string form of values (LANGUAGE.md §2) and their compact JSON text. Building text is where a
// value's size turns into memory, so the text is checked against maxStringLength as it grows and
// refused before it gets past it; long walks report their work to the run's clock as they go (so a
// deadline is seen within a few thousand items), and can pause for heavy built-ins.
import { NuwaError } from '../errors.js';
import { DEFAULT_VALUE_LIMITS, MAX_VALUE_DEPTH, NuwaList, tooDeep, type Value, type ValueLimits } from './model.js';

/** The string form used by PRINT, FORMAT and STR (LANGUAGE.md §2). */
export function toDisplayString(value: Value, limits: ValueLimits = DEFAULT_VALUE_LIMITS): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null ? 'null' : toJsonText(value, limits);
  }
}

/**
 * toDisplayString in steps, for heavy built-ins (runtime/suspend.ts): the walk over a list or object
 * pauses every PAUSE_UNITS items, after charging the run's clock for them.
 */
export function* displayStringSteps(value: Value, limits: ValueLimits = DEFAULT_VALUE_LIMITS): Generator<void, string, void> {
  if (typeof value !== 'object' || value === null) return toDisplayString(value, limits);
  const text = new JsonText(limits);
  yield* text.value(value, 0);
  return text.text;
}

/** Compact JSON text of a value, keys in insertion order. */
export function toJsonText(value: Value, limits: ValueLimits = DEFAULT_VALUE_LIMITS): string {
  switch (typeof value) {
    case 'string':
      return new JsonText(limits).string(value).text;
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (value === null) return 'null';
  const text = new JsonText(limits);
  const steps = text.value(value, 0);
  while (!steps.next().done);
  return text.text;
}

/** Items written between two pauses of the walk (a power of two). */
const PAUSE_UNITS = 64 * 1024;
/** Items written between two reports to the run's clock. */
const CHARGE_UNITS = 4096;

class JsonText {
  text = '';
  private readonly max: number;
  private readonly limits: ValueLimits;
  /** Items (and every 16 characters of long strings) written since the last report to the clock. */
  private units = 0;
  /** Reports since the last pause. */
  private reports = 0;

  constructor(limits: ValueLimits) {
    this.max = limits.maxStringLength;
    this.limits = limits; // charge is called on it: a run's is its method (tools/run.ts)
  }

  private add(part: string): void {
    this.text += part;
    if (this.text.length > this.max) throw this.tooLong();
  }

  private tooLong(): NuwaError {
    return new NuwaError('LimitExceededError', `the string form of the value would be longer than maxStringLength (${this.max} characters)`);
  }

  string(value: string): this {
    // Quoting only lengthens a string: refuse one that cannot fit before escaping it.
    if (this.text.length + value.length + 2 > this.max) throw this.tooLong();
    this.add(JSON.stringify(value));
    if (value.length >= 4096) this.units += value.length >>> 4;
    return this;
  }

  private scalar(value: Value): void {
    if (typeof value === 'string') this.string(value);
    else this.add(value === null ? 'null' : typeof value === 'number' ? String(value) : value ? 'true' : 'false');
  }

  /** Whether the walk should pause: its work is reported to the clock every CHARGE_UNITS items. */
  private counted(): boolean {
    if (++this.units < CHARGE_UNITS) return false;
    this.limits.charge?.(this.units);
    this.units = 0;
    if (++this.reports < PAUSE_UNITS / CHARGE_UNITS) return false;
    this.reports = 0;
    return true;
  }

  /** Writes a value, as steps that pause now and then (the caller drains them when it cannot pause). */
  *value(value: Value, depth: number): Generator<void, void, void> {
    if (typeof value !== 'object' || value === null) return this.scalar(value);
    if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
    if (value instanceof NuwaList) {
      this.add('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) this.add(',');
        const item = value.at(i);
        if (typeof item === 'object' && item !== null) yield* this.value(item, depth + 1);
        else this.scalar(item);
        if (this.counted()) yield;
      }
      this.add(']');
      return;
    }
    this.add('{');
    for (let i = 0; i < value.size; i++) {
      if (i > 0) this.add(',');
      this.string(value.keyAt(i));
      const item = value.valueAt(i);
      this.add(':');
      if (typeof item === 'object' && item !== null) yield* this.value(item, depth + 1);
      else this.scalar(item);
      if (this.counted()) yield;
    }
    this.add('}');
  }
}
