// A session: the key-value state that every tool of one host session shares (TOOLS.md §4). It
// outlives a single script run, so several scripts (or REPL entries) can build on the same state.
// Values are stored as independent copies; a tool changes stored state only through setState.
import { randomId } from '../util/platform.js';
import type { JsonValue } from '../values/json.js';
import { copyJson, fromJson, toDisplayString } from '../values/values.js';
import { describeThrown, textOf } from '../util/foreign.js';
import type { StateAccess, StateMetadata } from './types.js';

function checkedCopy(key: string, value: unknown): JsonValue {
  try {
    return copyJson(value);
  } catch (error) {
    throw new TypeError(`state "${key}": ${describeThrown(error)}`);
  }
}

/**
 * A session's values: up to SMALL_STATE of them as one array of key, value, key, value... (a Map's
 * table is three times the size, and a host may make a session per run), then a Map.
 */
type Values = Array<string | JsonValue> | Map<string, JsonValue>;
const SMALL_STATE = 8;

function valueIn(values: Values | undefined, key: string): JsonValue | undefined {
  if (values === undefined) return undefined;
  if (values instanceof Map) return values.get(key);
  for (let i = 0; i < values.length; i += 2) if (values[i] === key) return values[i + 1] as JsonValue;
  return undefined;
}

/** The values' entries, in the order their keys were first set. */
function* entriesOf(values: Values | undefined): Generator<[string, JsonValue]> {
  if (values === undefined) return;
  if (values instanceof Map) yield* values;
  else for (let i = 0; i < values.length; i += 2) yield [values[i] as string, values[i + 1] as JsonValue];
}

export class Session implements StateAccess {
  #id: string | undefined;
  /** Made at the first value set (an empty Map still costs its table). */
  private values: Values | undefined;
  /** Made when the first metadata is registered: most sessions (a host may make one per run) have none, and an empty Map still costs its table. */
  private metadata: Map<string, StateMetadata> | undefined;

  constructor(id?: string) {
    this.#id = id;
  }

  /** The session's id: the one it was made with, or a random UUID made when first read (most never are). */
  get id(): string {
    return (this.#id ??= randomId());
  }

  setState(key: string, value: JsonValue, metadata?: StateMetadata): void {
    if (typeof key !== 'string' || key === '') throw new TypeError('a state key must be a non-empty string');
    this.store(key, checkedCopy(key, value));
    if (metadata !== undefined) this.registerStateMetadata(key, metadata);
  }

  private store(key: string, value: JsonValue): void {
    const values = this.values;
    if (values === undefined) {
      this.values = [key, value];
    } else if (values instanceof Map) {
      values.set(key, value);
    } else {
      for (let i = 0; i < values.length; i += 2) {
        if (values[i] === key) {
          values[i + 1] = value;
          return;
        }
      }
      if (values.length < 2 * SMALL_STATE) values.push(key, value);
      else this.values = new Map([...entriesOf(values), [key, value]]);
    }
  }

  getStateValue(key: string): JsonValue | undefined {
    const value = valueIn(this.values, key);
    return value === undefined ? undefined : copyJson(value);
  }

  hasState(key: string): boolean {
    return valueIn(this.values, key) !== undefined;
  }

  /** A copy: changing the returned map or its values does not change the session. */
  getAllState(): Map<string, JsonValue> {
    const out = new Map<string, JsonValue>();
    for (const [key, value] of entriesOf(this.values)) out.set(key, copyJson(value));
    return out;
  }

  /** Removes every value; metadata registered for keys stays, since it describes the keys. */
  clearState(): void {
    this.values = undefined;
  }

  deleteState(key: string): boolean {
    const values = this.values;
    if (values === undefined) return false;
    if (values instanceof Map) return values.delete(key);
    for (let i = 0; i < values.length; i += 2) {
      if (values[i] === key) {
        values.splice(i, 2);
        return true;
      }
    }
    return false;
  }

  getStateMetadata(key: string): StateMetadata | undefined {
    return this.metadata?.get(key);
  }

  getAllStateMetadata(): Map<string, StateMetadata> {
    return new Map(this.metadata ?? []);
  }

  /** Keeps a frozen copy, read once: the caller changing its object later changes nothing here. */
  registerStateMetadata(key: string, metadata: StateMetadata): void {
    if (metadata === null || typeof metadata !== 'object') throw new TypeError(`state metadata for "${textOf(key)}" needs a description`);
    const { description, formatter } = metadata;
    if (typeof description !== 'string') throw new TypeError(`state metadata for "${textOf(key)}" needs a description`);
    if (formatter !== undefined && typeof formatter !== 'function') throw new TypeError(`state metadata for "${textOf(key)}": formatter must be a function`);
    (this.metadata ??= new Map()).set(key, Object.freeze(formatter === undefined ? { description } : { description, formatter }));
  }

  /** One line per state value, "key: value (description)", for a model's prompt. */
  formatStateForPrompt(): string {
    const lines: string[] = [];
    for (const [key, value] of entriesOf(this.values)) {
      const metadata = this.metadata?.get(key);
      let shown: string;
      try {
        // A formatter is the host's or a tool's code: what it returns is only looked at through textOf.
        shown = metadata?.formatter ? textOf(metadata.formatter(copyJson(value))) : toDisplayString(fromJson(value));
      } catch (error) {
        shown = `${toDisplayString(fromJson(value))} (formatter failed: ${describeThrown(error)})`;
      }
      lines.push(metadata?.description ? `${key}: ${shown} (${metadata.description})` : `${key}: ${shown}`);
    }
    return lines.join('\n');
  }

  /** The state as one plain object (for `--json` output and hosts). */
  toJSON(): Record<string, JsonValue> {
    const out: Record<string, JsonValue> = {};
    for (const [key, value] of entriesOf(this.values)) Object.defineProperty(out, key, { value: copyJson(value), enumerable: true, writable: true, configurable: true });
    return out;
  }
}
