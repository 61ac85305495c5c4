// The state of a REPL session, apart from any terminal: the top-level variables, the session state
// (kept by the registry's session, which every entry shares) and the entries that ran.
//
// Each entry is one run of the same Interpreter, started with the variables the previous entries
// left. The top level is a single scope (LANGUAGE.md §3), so this is exactly the LET semantics of
// one long script: `LET x = x + 1` in a later entry updates the x of an earlier one. A failed entry
// keeps what it did before the error, as a script's output and tool calls do.
import { NuwaError } from '../errors.js';
import type { ExpressionStatement, Program, Statement } from '../syntax/ast.js';
import { parse } from '../syntax/parse.js';
import type { Interpreter } from '../api/interpreter.js';
import type { JsonValue } from '../values/json.js';
import { setJsonKey } from '../values/values.js';

/**
 * Where the value of a bare expression entry is kept while the entry runs: not a valid name, so no
 * script can read or overwrite it.
 */
const VALUE_SLOT = ' value';

export interface EntryResult {
  /** Set when the entry ends with an expression statement (other than a PRINT): its value. */
  value?: JsonValue;
}

export interface EntryOptions {
  signal?: AbortSignal;
  fileName?: string;
}

export class ReplSession {
  private vars: Record<string, JsonValue>;
  private readonly ran: string[] = [];

  constructor(
    private readonly interpreter: Interpreter,
    private readonly initial: { variables: Record<string, JsonValue>; state: Record<string, JsonValue> },
  ) {
    this.vars = { ...initial.variables };
  }

  get variables(): Record<string, JsonValue> {
    return this.vars;
  }

  /** The source of every entry that ran without an error, in order. */
  get entries(): readonly string[] {
    return this.ran;
  }

  get state(): Record<string, JsonValue> {
    return this.interpreter.session.toJSON();
  }

  /** Runs one entry. Rejects with the NuwaError of a failed entry, after keeping its effects. */
  async evaluate(source: string, options: EntryOptions = {}): Promise<EntryResult> {
    const runOptions = { variables: this.vars, signal: options.signal, fileName: options.fileName };
    let program: Program;
    try {
      program = parse(source, { fileName: options.fileName });
    } catch (error) {
      if (!(error instanceof NuwaError)) throw error;
      // Run the text itself, so that the syntax error also goes through the run's events.
      await this.interpreter.run(source, runOptions);
      throw error;
    }
    const { program: runnable, showsValue } = keepLastValue(program);
    try {
      const result = await this.interpreter.run(runnable, runOptions);
      const value = result.variables[VALUE_SLOT];
      this.keep(result.variables);
      this.ran.push(source);
      return showsValue && value !== undefined ? { value } : {};
    } catch (error) {
      if (error instanceof NuwaError && error.variables) this.keep(error.variables);
      throw error;
    }
  }

  /** Back to the start: the initial variables and state (from --var and --state), no entries. */
  reset(): void {
    this.vars = { ...this.initial.variables };
    this.ran.length = 0;
    const session = this.interpreter.session;
    session.clearState();
    for (const [key, value] of Object.entries(this.initial.state)) session.setState(key, value);
  }

  /** The entries as one script, for `.save`. */
  script(): string {
    return this.ran.map((entry) => `${entry.replace(/\s+$/, '')}\n`).join('');
  }

  /**
   * Top-level variables are never unbound, so the newest values of a run, laid over the previous
   * ones, are the whole truth even when an error report could not convert some of them.
   */
  private keep(variables: Record<string, JsonValue>): void {
    const next: Record<string, JsonValue> = {};
    for (const [name, value] of Object.entries(this.vars)) setJsonKey(next, name, value);
    for (const [name, value] of Object.entries(variables)) if (name !== VALUE_SLOT) setJsonKey(next, name, value);
    this.vars = next;
  }
}

/**
 * Turns a last statement that is a bare expression into an assignment to VALUE_SLOT, so that its
 * value comes back with the variables. `PRINT(...)` shows its own output and is left alone.
 */
function keepLastValue(program: Program): { program: Program; showsValue: boolean } {
  const last = program.body[program.body.length - 1];
  if (last?.type !== 'ExpressionStatement' || isPrint(last)) return { program, showsValue: false };
  const keep: Statement = { type: 'Let', name: VALUE_SLOT, value: last.expression, line: last.line, column: last.column, hasCall: last.hasCall };
  return { program: { ...program, body: [...program.body.slice(0, -1), keep] }, showsValue: true };
}

function isPrint(statement: ExpressionStatement): boolean {
  return statement.expression.type === 'FunctionCall' && statement.expression.name === 'PRINT';
}
