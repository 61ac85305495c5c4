// The string form of values (LANGUAGE.md §2) and their compact JSON text. Building text is where a
// value's size turns into memory, so the text is checked against maxStringLength as it grows and
// refused before it gets past it; long walks report their work to the run's clock.
import { NuwaError } from '../errors.js';
import { DEFAULT_VALUE_LIMITS, MAX_VALUE_DEPTH, NuwaList, tooDeep, Work, type Value, type ValueLimits } from './model.js';

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
  return new JsonText(limits).value(value, 0).text;
}

class JsonText {
  text = '';
  private readonly max: number;
  private readonly work: Work;

  constructor(limits: ValueLimits) {
    this.max = limits.maxStringLength;
    this.work = new Work(limits.charge);
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
    return this;
  }

  value(value: Value, depth: number): this {
    switch (typeof value) {
      case 'string':
        return this.string(value);
      case 'number':
        this.add(String(value));
        return this;
      case 'boolean':
        this.add(value ? 'true' : 'false');
        return this;
    }
    if (value === null) {
      this.add('null');
      return this;
    }
    if (depth >= MAX_VALUE_DEPTH) throw tooDeep();
    this.work.add(value instanceof NuwaList ? value.length : value.size);
    if (value instanceof NuwaList) {
      this.add('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) this.add(',');
        this.value(value.at(i), depth + 1);
      }
      this.add(']');
      return this;
    }
    this.add('{');
    let first = true;
    for (const [key, item] of value) {
      if (!first) this.add(',');
      first = false;
      this.string(key);
      this.add(':');
      this.value(item, depth + 1);
    }
    this.add('}');
    return this;
  }
}
