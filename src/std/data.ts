// The data tools (TOOLS.md §12): data.parse_json, data.parse_csv (csv-parse, not a hand-written
// splitter) and data.validate. data.validate checks a value against a JSON Schema through the
// project's own Ajv setup (tools/validate.ts, compileSchemaCheck). The schema comes from a script,
// and some schemas make checking take very long on a small value — a `pattern` that backtracks
// catastrophically, `uniqueItems` over a long list of objects (quadratic) — in code that never
// yields, which no run limit could stop. So the check runs under a vm timeout, which interrupts
// synchronous code (V8 terminates it), and the schema's size is capped.
import vm from 'node:vm';
import { parse as parseCsv } from 'csv-parse/sync';
import { compileSchemaCheck, type SchemaCheck, type SchemaIssue } from '../tools/validate.js';
import type { DefinedTool } from '../tools/forms.js';
import type { JsonSchema } from '../tools/types.js';
import type { JsonObject, JsonValue } from '../values/json.js';
import { stdTool, StdToolError } from './common.js';

/** The largest schema data.validate compiles, in characters of its JSON text. */
export const MAX_SCHEMA_CHARS = 100_000;
/** How long one data.validate check may take before it is stopped. */
export const VALIDATE_TIMEOUT_MS = 2_000;

// One context and one script for every check: the check and the value are handed over as the
// context's globals for the duration of the call.
const checkScript = new vm.Script('check(value)');
let checkContext: vm.Context | undefined;

/** `check(value)`, stopped with a StdToolError if it runs longer than VALIDATE_TIMEOUT_MS. */
function checkWithinTime(check: SchemaCheck, value: JsonValue): SchemaIssue[] {
  const context = (checkContext ??= vm.createContext({}));
  context.check = check;
  context.value = value;
  try {
    return checkScript.runInContext(context, { timeout: VALIDATE_TIMEOUT_MS }) as SchemaIssue[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new StdToolError(
        `checking took longer than ${VALIDATE_TIMEOUT_MS} ms and was stopped: simplify the schema (a pattern that backtracks, uniqueItems over a long list of objects)`,
        'TIMEOUT',
      );
    }
    throw error;
  } finally {
    context.check = undefined;
    context.value = undefined;
  }
}

function parseJson(args: JsonObject): JsonValue {
  try {
    return JSON.parse(args.text as string) as JsonValue;
  } catch (error) {
    throw new StdToolError(`the text is not valid JSON: ${(error as Error).message}`, 'BAD_JSON');
  }
}

function parseCsvText(args: JsonObject): JsonValue {
  const delimiter = args.delimiter as string;
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
    throw new StdToolError(`delimiter must be one character other than a quote or a line break, such as "," ";" or "\\t"`, 'BAD_OPTION');
  }
  const header = args.header === true;
  try {
    return parseCsv(args.text as string, {
      delimiter,
      bom: true,
      skip_empty_lines: true,
      // With a header, rows are objects keyed by its names (csv-parse makes them without a
      // prototype, so "__proto__" is a plain column); a name given twice would lose a column.
      columns: header ? (names: string[]) => checkedHeader(names) : false,
    }) as JsonValue;
  } catch (error) {
    if (error instanceof StdToolError) throw error;
    throw new StdToolError(`the text is not valid CSV: ${(error as Error).message}`, 'BAD_CSV');
  }
}

function checkedHeader(names: string[]): string[] {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new StdToolError(`the header line names the column "${name}" twice: rename one, or read the rows as lists with header: false`, 'BAD_CSV');
    seen.add(name);
  }
  return names;
}

function validate(args: JsonObject): JsonValue {
  const schema = args.schema as JsonSchema;
  const size = JSON.stringify(schema).length;
  if (size > MAX_SCHEMA_CHARS) throw new StdToolError(`the schema is too large to check (${size} characters; at most ${MAX_SCHEMA_CHARS})`, 'SCHEMA_TOO_LARGE');
  let check: SchemaCheck;
  try {
    check = compileSchemaCheck(schema);
  } catch (error) {
    throw new StdToolError((error as Error).message, 'BAD_SCHEMA');
  }
  const errors = checkWithinTime(check, args.data ?? null);
  return { valid: errors.length === 0, errors: errors as unknown as JsonValue };
}

export function dataTools(): DefinedTool[] {
  return [
    stdTool({
      id: 'json-parse',
      name: 'data.parse_json',
      description: 'Parses JSON text into a value.',
      category: 'data',
      confirm: 'none',
      keywords: ['json', 'parse', 'decode', 'text'],
      input: { type: 'object', properties: { text: { type: 'string', description: 'JSON text' } }, required: ['text'], additionalProperties: false },
      output: {},
      run: parseJson,
    }),
    stdTool({
      id: 'csv-parse',
      name: 'data.parse_csv',
      description:
        'Parses CSV text: with header: true (the default) a list of objects keyed by the first line, else a list of lists. Values stay strings (use NUMBER to convert). Quoted fields may hold commas, quotes ("") and line breaks.',
      category: 'data',
      confirm: 'none',
      keywords: ['csv', 'parse', 'table', 'rows', 'spreadsheet', 'columns'],
      input: {
        type: 'object',
        properties: {
          text: { type: 'string', description: 'CSV text' },
          header: { type: 'boolean', default: true, description: 'whether the first line names the columns' },
          delimiter: { type: 'string', default: ',', description: 'the field separator: one character, such as ; or a tab' },
        },
        required: ['text'],
        additionalProperties: false,
      },
      output: { type: 'array', items: { type: ['object', 'array'] } },
      run: parseCsvText,
    }),
    stdTool({
      id: 'data-validate',
      name: 'data.validate',
      description:
        'Checks a value against a JSON Schema: { valid, errors }, each error { path, message } (path "" is the value itself).',
      category: 'data',
      confirm: 'none',
      keywords: ['validate', 'schema', 'json schema', 'check', 'verify', 'shape'],
      input: {
        type: 'object',
        properties: {
          data: { description: 'the value to check' },
          schema: { type: ['object', 'boolean'], description: 'a JSON Schema, as an object' },
        },
        required: ['schema'],
        additionalProperties: false,
      },
      output: {
        type: 'object',
        properties: {
          valid: { type: 'boolean' },
          errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } }, required: ['path', 'message'] } },
        },
        required: ['valid', 'errors'],
      },
      run: validate,
    }),
  ];
}
