// Other languages' methods, arrow functions and library calls, read as the Nuwa Script that does the
// same: `s.lower()` is LOWER(s), `xs.filter(x => x.ok)` is [x FOR x IN xs IF x.ok], `Math.max(...xs)`
// is MAX(xs), `d.get(k, 0)` is GET(d, k, 0), `len(xs)` is LEN(xs). Each repair yields the node the
// author meant — so the rest of the script is parsed and checked as intended — and the message that
// reports the mistake, whose suggestion is that node printed (print.ts): built from the corrected
// pieces, it never carries the mistake along (`LOWER(f.path)`, never `f.path.lower`). Where there is
// no Nuwa equivalent of one expression (forEach, indexOf, JSON.parse), the repair is a stand-in
// (nodes.ts) and the message says what to write instead.
import type * as A from './ast.js';
import type { Position } from '../errors.js';
import { isStandIn, placeholder } from './nodes.js';
import { printExpression, printOr } from './print.js';

/** An arrow function (`x => x.ok`, `(a, b) => a + b`) or Python lambda, as an argument. */
export interface Lambda {
  params: string[];
  body: A.Expression;
}

/**
 * Arrow functions and spread arguments the expression builder read (precedence.ts), by the stand-in
 * node it put in their place. A repair below that uses one takes it out (`take`), and whatever is
 * left when the parse ends is reported on its own (parser.ts).
 */
export const pending = {
  lambdas: new Map<A.Expression, Lambda & { at: Position }>(),
  spreads: new Map<A.Expression, Position>(),
  /**
   * The parameters of `(a, b) => ...` and `lambda a, b: ...`, by the position of the first, which
   * the mistakes pass leaves in their place (mistakes.ts).
   */
  lambdaParams: new Map<string, string[]>(),
  /** Functions a script tried to define (`def to_f(c):`), by name: the line of the definition (borrowed.ts). */
  definitions: new Map<string, number>(),
  /** At the start of a parse (the mistakes pass, which runs before it, clears lambdaParams). */
  clear(): void {
    this.lambdas.clear();
    this.spreads.clear();
  },
};

export interface Repair {
  /** What the author meant (a stand-in when Nuwa has no one expression for it). */
  node: A.Expression;
  message: string;
  /** `xs.push(x)` as a statement means LET xs = APPEND(xs, x): the variable it changes. */
  changes?: string;
  /** `d.items()`: KEYS(d) in a FOR with two variables, which then reads d[k]. */
  itemsOf?: A.Expression;
}

// --- node builders: every node is put at the position of the mistake it repairs ------------------

const at = (p: Position) => ({ line: p.line, column: p.column });
const calls = (nodes: readonly A.Expression[]) => nodes.some((n) => n.hasCall);
const fn = (name: string, args: A.Expression[], p: Position): A.FunctionCall => ({ type: 'FunctionCall', name, arguments: args, ...at(p), hasCall: calls(args) });
const lit = (value: string | number, p: Position): A.Literal => ({ type: 'Literal', value, ...at(p), hasCall: false });
const variable = (name: string, p: Position): A.Variable => ({ type: 'Variable', name, ...at(p), hasCall: false });
const binary = (operator: A.BinaryExpression['operator'], left: A.Expression, right: A.Expression, p: Position): A.BinaryExpression => ({
  type: 'Binary', operator, left, right, ...at(p), hasCall: left.hasCall || right.hasCall,
});
const not = (operand: A.Expression, p: Position): A.UnaryExpression => ({ type: 'Unary', operator: 'NOT', operand, ...at(p), hasCall: operand.hasCall });
const index = (object: A.Expression, i: A.Expression, p: Position): A.IndexExpression => ({ type: 'Index', object, index: i, ...at(p), hasCall: object.hasCall || i.hasCall });
const comprehension = (element: A.Expression, name: string, iterable: A.Expression, condition: A.Expression | null, p: Position): A.ComprehensionExpression => ({
  type: 'Comprehension', element, variable: name, iterable, condition, ...at(p),
  hasCall: element.hasCall || iterable.hasCall || (condition !== null && condition.hasCall),
});

/** The text a message shows for `node`: the printed node, or `fallback` when it cannot be shown. */
const show = (node: A.Expression, fallback = '...'): string => printOr(node, fallback);

/** A repair to `node`, with the message "there are no methods: write <node>". */
function to(node: A.Expression, lead: string, extra = ''): Repair {
  const text = printExpression(node);
  return { node, message: text === undefined ? `${lead}${extra}` : `${lead}: write ${text}${extra}` };
}

const standIn = (message: string): Repair => ({ node: placeholder(), message });

/** A string literal's length, for SLICE(s, 0, n) == "abc". */
const literalLength = (node: A.Expression): number | undefined => (node.type === 'Literal' && typeof node.value === 'string' && !isStandIn(node) ? node.value.length : undefined);

const NO_METHODS = 'there are no methods';

/** Methods taking no argument that are one built-in of the object. */
const ONE_BUILTIN: ReadonlyMap<string, string> = new Map([
  ['length', 'LEN'], ['len', 'LEN'], ['size', 'LEN'], ['count', 'LEN'], ['__len__', 'LEN'],
  ['upper', 'UPPER'], ['toUpperCase', 'UPPER'], ['toLocaleUpperCase', 'UPPER'], ['lower', 'LOWER'], ['toLowerCase', 'LOWER'], ['toLocaleLowerCase', 'LOWER'], ['casefold', 'LOWER'],
  ['strip', 'TRIM'], ['trim', 'TRIM'], ['keys', 'KEYS'], ['sort', 'SORT'], ['sorted', 'SORT'], ['reverse', 'REVERSE'], ['reversed', 'REVERSE'],
  ['toString', 'STR'], ['str', 'STR'], ['toJSON', 'STR'], ['round', 'ROUND'], ['sum', 'SUM'], ['max', 'MAX'], ['min', 'MIN'], ['abs', 'ABS'],
  ['floor', 'FLOOR'], ['ceil', 'CEIL'],
]);

/** Methods whose arguments follow the object as a built-in's: `s.split(",")` is SPLIT(s, ","). */
const SAME_ARGUMENTS: ReadonlyMap<string, string> = new Map([
  ['split', 'SPLIT'], ['replace', 'REPLACE'], ['replaceAll', 'REPLACE'], ['slice', 'SLICE'], ['substring', 'SLICE'],
  ['includes', 'CONTAINS'], ['contains', 'CONTAINS'], ['has', 'CONTAINS'], ['hasOwnProperty', 'CONTAINS'], ['__contains__', 'CONTAINS'], ['containsKey', 'CONTAINS'],
  ['get', 'GET'], ['getOrDefault', 'GET'], ['round', 'ROUND'], ['toFixed', 'ROUND'], ['join', 'JOIN'],
]);

/** `object.method(args)`: the repair, by the method's name. */
export function repairMethod(object: A.Expression, method: string, args: A.Expression[], p: Position): Repair {
  const namespaced = object.type === 'Variable' ? repairLibraryCall(object.name, method, args, p) : undefined;
  if (namespaced !== undefined) return namespaced;
  const lambda = args.length >= 1 ? pending.lambdas.get(args[0]!) : undefined;
  if (lambda !== undefined) return repairLambdaMethod(object, method, lambda, args, p);
  const [first, second] = args;

  const one = ONE_BUILTIN.get(method);
  if (one !== undefined && args.length === 0) return to(fn(one, [object], p), NO_METHODS);
  if (method === 'count' && args.length === 1) {
    return to(fn('LEN', [comprehension(variable('item', p), 'item', object, binary('==', variable('item', p), first!, p), p)], p), NO_METHODS);
  }
  if (method === 'split' && args.length === 0) return to(fn('SPLIT', [object, lit(' ', p)], p), NO_METHODS);
  if (method === 'join') {
    // Python's ", ".join(names) joins the argument with the string; JavaScript's names.join(", ") the other way.
    if (object.type === 'Literal' && typeof object.value === 'string' && args.length === 1) return to(fn('JOIN', [first!, object], p), NO_METHODS);
    return to(fn('JOIN', [object, first ?? lit(',', p)], p), NO_METHODS);
  }
  if (method === 'substr' && args.length === 2) return to(fn('SLICE', [object, first!, binary('+', first!, second!, p)], p), NO_METHODS);
  const same = SAME_ARGUMENTS.get(method);
  if (same !== undefined && args.length >= 1) return to(fn(same, [object, ...args], p), NO_METHODS);
  if ((method === 'push' || method === 'append') && args.length >= 1) {
    const node = args.reduce<A.Expression>((list, item) => fn('APPEND', [list, item], p), object);
    const target = object.type === 'Variable' ? object.name : undefined;
    const text = printExpression(node);
    const message = target !== undefined && text !== undefined ? `${NO_METHODS}: write LET ${target} = ${text}` : `${NO_METHODS}: APPEND returns a new list: LET name = APPEND(name, value)`;
    return target === undefined ? { node, message } : { node, message, changes: target };
  }
  if ((method === 'set' || method === 'put') && args.length === 2) {
    const node = fn('SET', [object, first!, second!], p);
    const target = object.type === 'Variable' ? object.name : undefined;
    const text = printExpression(node);
    const message = target !== undefined && text !== undefined ? `${NO_METHODS}: write LET ${target} = ${text}` : `${NO_METHODS}: SET returns a new object: LET name = SET(name, key, value)`;
    return target === undefined ? { node, message } : { node, message, changes: target };
  }
  if (/^(starts|ends)with$/i.test(method) && args.length === 1) {
    const n = literalLength(first!);
    const length = n === undefined ? fn('LEN', [first!], p) : lit(n, p);
    const piece = /^starts/i.test(method) ? fn('SLICE', [object, lit(0, p), length], p) : fn('SLICE', [object, n === undefined ? { type: 'Unary', operator: '-', operand: length, ...at(p), hasCall: length.hasCall } : lit(-n, p)], p);
    return to(binary('==', piece, first!, p), `${NO_METHODS}: compare a SLICE`);
  }
  if ((method === 'items' || method === 'entries') && args.length === 0) {
    const keys = fn('KEYS', [object], p);
    return { ...to(keys, NO_METHODS, `, and read ${show(object, 'obj')}[key] for each key`), itemsOf: object };
  }
  if (method === 'values' && args.length === 0) return to(comprehension(index(object, variable('k', p), p), 'k', fn('KEYS', [object], p), null, p), NO_METHODS);
  if (method === 'format' && object.type === 'Literal' && typeof object.value === 'string') return repairStrFormat(object.value, args, p);
  if ((method === 'indexOf' || method === 'find' || method === 'index' || method === 'search') && args.length === 1) {
    return standIn(`${NO_METHODS}: there is no search for a position; to test whether it is there write ${show(fn('CONTAINS', [object, first!], p))}`);
  }
  return standIn(`${NO_METHODS}: call a built-in function on ${show(object, 'the value')} (LEN, UPPER, SPLIT, CONTAINS, SLICE...)`);
}

/** `xs.filter(x => ...)` and the other methods that take a function. */
function repairLambdaMethod(object: A.Expression, method: string, lambda: Lambda & { at: Position }, args: A.Expression[], p: Position): Repair {
  pending.lambdas.delete(args[0]!);
  const { params, body } = lambda;
  const [name] = params;
  const lead = 'there are no methods or arrow functions';
  if (name === undefined) return standIn(`${lead}: use a list comprehension, [expression FOR x IN list IF condition]`);
  const item = variable(name, p);
  switch (method) {
    case 'filter':
      if (params.length === 1) return to(comprehension(item, name, object, body, p), lead);
      break;
    case 'map':
      if (params.length === 1) return to(comprehension(body, name, object, null, p), lead);
      break;
    case 'some':
    case 'any':
      if (params.length === 1) return to(binary('>', fn('LEN', [comprehension(item, name, object, body, p)], p), lit(0, p), p), lead);
      break;
    case 'every':
    case 'all':
      if (params.length === 1) return to(binary('==', fn('LEN', [comprehension(item, name, object, not(body, p), p)], p), lit(0, p), p), lead);
      break;
    case 'find':
      if (params.length === 1) return to(index(comprehension(item, name, object, body, p), lit(0, p), p), lead, ' (it fails when no item matches: check LEN first)');
      break;
    case 'reduce': {
      // (total, x) => total + x, or total + x.amount: a sum.
      const [total, each] = params;
      if (each !== undefined && body.type === 'Binary' && body.operator === '+' && body.left.type === 'Variable' && body.left.name === total) {
        const added = body.right;
        const list = added.type === 'Variable' && added.name === each ? object : comprehension(added, each, object, null, p);
        return to(fn('SUM', [list], p), lead);
      }
      return standIn(`${lead}: accumulate with a loop, LET total = 0 then FOR x IN ${show(object, 'list')} DO LET total = total + ... END (SUM adds a list of numbers)`);
    }
    case 'sort':
    case 'sorted': {
      // (a, b) => a.price - b.price: SORT by that key.
      const key = sortKey(params, body);
      if (key !== undefined) return to(fn('SORT', [object, lit(key, p)], p), lead);
      break;
    }
    case 'forEach':
      return standIn(`${lead}: loop with FOR ${name} IN ${show(object, 'list')} DO ... END`);
  }
  return standIn(`${lead}: use a list comprehension, [expression FOR ${name} IN ${show(object, 'list')} IF condition], or a FOR loop`);
}

/** The field a comparator sorts by: `(a, b) => a.price - b.price`, or a key function `x => x.price`. */
function sortKey(params: string[], body: A.Expression): string | undefined {
  const field = (node: A.Expression, name: string | undefined) => (node.type === 'Member' && node.object.type === 'Variable' && node.object.name === name ? node.property : undefined);
  if (params.length === 1) return field(body, params[0]);
  if (params.length === 2 && body.type === 'Binary' && body.operator === '-') {
    const key = field(body.left, params[0]);
    return key !== undefined && key === field(body.right, params[1]) ? key : undefined;
  }
  return undefined;
}

/** Python's "{} costs {}".format(name, price): FORMAT with named placeholders. */
function repairStrFormat(template: string, args: A.Expression[], p: Position): Repair {
  const names = args.map((arg, i) => (arg.type === 'Variable' ? arg.name : arg.type === 'Member' ? arg.property : `v${i + 1}`));
  let next = 0;
  const text = template.replace(/\{(\d*)\}/g, (match, digits: string) => {
    const i = digits === '' ? next++ : Number(digits);
    return names[i] === undefined ? match : `{${names[i]}}`;
  });
  const properties = args.map((value, i): A.Property => ({ type: 'Property', key: names[i]!, value, ...at(p), hasCall: value.hasCall }));
  const values: A.ObjectExpression = { type: 'Object', properties, ...at(p), hasCall: calls(args) };
  return to(fn('FORMAT', [lit(text, p), values], p), NO_METHODS);
}

// --- library calls: Math.max(...), Object.keys(o), console.log(x) --------------------------------------

const MATH: ReadonlyMap<string, string> = new Map([['max', 'MAX'], ['min', 'MIN'], ['round', 'ROUND'], ['floor', 'FLOOR'], ['ceil', 'CEIL'], ['abs', 'ABS'], ['trunc', 'FLOOR']]);

/** `Math.max(a, b)`, `Object.keys(o)`, `JSON.stringify(x)`...: undefined when `library` is none of those. */
function repairLibraryCall(library: string, name: string, args: A.Expression[], p: Position): Repair | undefined {
  const lead = `there is no \`${library}.${name}\``;
  const [first] = args;
  switch (library) {
    case 'Math':
    case 'math': {
      const builtin = MATH.get(name);
      if (builtin === undefined) {
        if (name === 'pow' || name === 'sqrt') return standIn(`${lead}: multiply (x * x), or use CALC { formula: "...", vars: { ... } } for a formula`);
        if (name === 'random') return standIn(`${lead}: a script has no random numbers; ask a tool`);
        return standIn(`${lead}: the built-ins for numbers are ROUND, FLOOR, CEIL, ABS, MIN, MAX and SUM`);
      }
      // Math.max(...xs): MAX takes the list itself.
      const spread = args.length === 1 && pending.spreads.has(first!);
      if (spread) pending.spreads.delete(first!);
      return to(fn(builtin, args, p), lead);
    }
    case 'Object':
      if (name === 'keys' && args.length === 1) return to(fn('KEYS', args, p), lead);
      if (name === 'values' && args.length === 1) return to(comprehension(index(first!, variable('k', p), p), 'k', fn('KEYS', args, p), null, p), lead);
      if (name === 'entries' && args.length === 1) return { ...to(fn('KEYS', args, p), lead, `, and read ${show(first!, 'obj')}[key] for each key`), itemsOf: first! };
      return undefined;
    case 'JSON':
      if (name === 'stringify' && args.length >= 1) return to(fn('STR', [first!], p), lead);
      if (name === 'parse') return standIn(`${lead}: values are JSON already (a tool's result is a list or object you can read with .key and [i])`);
      return undefined;
    case 'console':
      if (args.length === 1) return to(fn('PRINT', args, p), lead);
      return standIn(`${lead}: write PRINT(value), one value per PRINT (FORMAT builds one line from several)`);
    case 'Date':
      if (name === 'now' && args.length === 0) return to(fn('NOW', [], p), lead);
      return undefined;
    case 'Array':
      if (name === 'isArray' && args.length === 1) return to(binary('==', fn('TYPE', args, p), lit('list', p), p), lead);
      return undefined;
    case 'Number':
      if ((name === 'parseFloat' || name === 'parseInt') && args.length >= 1) return to(fn('NUMBER', [first!], p), lead);
      return undefined;
  }
  return undefined;
}

// --- function calls of other languages: len(xs), sum(xs), int(s), filter(f, xs) ---------------------

/** Functions of other languages with a built-in taking the same arguments. */
const FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ['int', 'NUMBER'], ['float', 'NUMBER'], ['parseInt', 'NUMBER'], ['parseFloat', 'NUMBER'], ['Number', 'NUMBER'], ['num', 'NUMBER'], ['to_number', 'NUMBER'],
  ['str', 'STR'], ['String', 'STR'], ['toString', 'STR'], ['sorted', 'SORT'], ['reversed', 'REVERSE'], ['length', 'LEN'], ['size', 'LEN'], ['count', 'LEN'],
  ['print', 'PRINT'], ['echo', 'PRINT'], ['puts', 'PRINT'], ['isinstance', 'TYPE'],
]);

/**
 * `name(args)` where `name` is no built-in: what it means in Nuwa (`sum` → SUM, `int` → NUMBER,
 * `filter(lambda x: ..., xs)` → a comprehension), or undefined when nothing is known of the name.
 * The message (the text after "there is no function `name`: ") shows the whole repaired call.
 */
export function repairFunction(name: string, args: A.Expression[], builtins: ReadonlySet<string>, p: Position): { node: A.Expression; hint: string } | undefined {
  const upper = name.toUpperCase();
  const shown = (node: A.Expression, lead: string) => {
    const text = printExpression(node);
    return { node, hint: text === undefined ? `${lead}: write \`${(node as A.FunctionCall).name ?? upper}\`` : `${lead}: write \`${text}\`` };
  };
  if (builtins.has(upper)) {
    const node = fn(upper, args, p);
    const text = printExpression(node);
    return { node, hint: `built-in names are uppercase: write \`${upper}\`${text === undefined ? '' : `, as in ${text}`}` };
  }
  // sorted(xs, key=lambda x: x.price): SORT by the field's name (`key=` is read into the lambda).
  const by = args.length === 2 && (name === 'sorted' || upper === 'SORT') ? pending.lambdas.get(args[1]!) : undefined;
  if (by !== undefined && by.body.type === 'Member' && by.body.object.type === 'Variable' && (by.params.length === 0 || by.params.includes(by.body.object.name))) {
    pending.lambdas.delete(args[1]!);
    return shown(fn('SORT', [args[0]!, lit(by.body.property, p)], p), "use SORT with the key's name");
  }
  const same = FUNCTIONS.get(name);
  // int(x / 2) of a number: Python's int() drops the fraction, which is FLOOR (NUMBER reads text).
  if (same === 'NUMBER' && (name === 'int' || name === 'parseInt') && args.length === 1 && isArithmetic(args[0]!)) return shown(fn('FLOOR', args, p), 'of a number, use FLOOR');
  if (same !== undefined && !(same === 'TYPE' && args.length !== 1)) return shown(fn(same, args.slice(0, same === 'NUMBER' ? 1 : args.length), p), `use ${same}`);
  const lambda = args.length === 2 ? pending.lambdas.get(args[0]!) : undefined;
  if (lambda !== undefined && (upper === 'FILTER' || upper === 'MAP') && lambda.params.length === 1) {
    pending.lambdas.delete(args[0]!);
    const [param] = lambda.params as [string];
    const node = upper === 'FILTER' ? comprehension(variable(param, p), param, args[1]!, lambda.body, p) : comprehension(lambda.body, param, args[1]!, null, p);
    return shown(node, 'use a list comprehension');
  }
  if ((upper === 'AVG' || upper === 'AVERAGE' || upper === 'MEAN') && args.length === 1) {
    return shown(binary('/', fn('SUM', args, p), fn('LEN', args, p), p), 'divide SUM by LEN');
  }
  if ((upper === 'LIST' || upper === 'ARRAY') && args.length === 1) return { node: args[0]!, hint: `a list is a list already: write \`${show(args[0]!)}\`` };
  return undefined;
}

/** Whether `node` is certainly a number: arithmetic other than `+` (which might join strings), or a number. */
function isArithmetic(node: A.Expression): boolean {
  if (node.type === 'Literal') return typeof node.value === 'number';
  if (node.type === 'Binary') return node.operator === '-' || node.operator === '*' || node.operator === '/' || node.operator === '%';
  if (node.type === 'Unary') return node.operator === '-';
  return node.type === 'FunctionCall' && ['LEN', 'SUM', 'ROUND', 'ABS', 'MIN', 'MAX', 'NOW'].includes(node.name);
}

/** `FOR i, x IN enumerate(xs)`: the list enumerated, when `iterable` is that call. */
export function enumerated(iterable: A.Expression): A.Expression | undefined {
  return iterable.type === 'FunctionCall' && iterable.name === 'enumerate' && iterable.arguments.length === 1 ? iterable.arguments[0] : undefined;
}

