// "Did you mean" knowledge shared by syntax errors and runtime errors: the mistakes a model or a
// person coming from another language makes most often in Nuwa Script, and the Nuwa way for each.
// Lookups go through Maps, never plain objects: a name such as `constructor` or `__proto__` is an
// ordinary name and must not find something on Object.prototype.
import { KEYWORDS } from './tokens.js';

const KEYWORD_SET = new Set<string>(KEYWORDS);

/** Names other languages use for true, false and null. */
export const LITERAL_WORDS: ReadonlyMap<string, 'true' | 'false' | 'null'> = new Map([
  ['TRUE', 'true'], ['True', 'true'],
  ['FALSE', 'false'], ['False', 'false'],
  ['NULL', 'null'], ['Null', 'null'], ['None', 'null'], ['NONE', 'null'], ['nil', 'null'], ['Nil', 'null'], ['NIL', 'null'], ['undefined', 'null'],
]);

const ELSE_IF = 'write ELSE IF ... END, each IF with its own END';
const LOOP_ADVICE = 'loop over a list with FOR x IN list DO ... END (to count, FOR i IN RANGE(n) DO ... END)';

/** Constructs of other languages that Nuwa does not have, by their name in upper case. */
const MISSING_CONSTRUCTS: ReadonlyMap<string, string> = new Map([
  ['ELSEIF', `there is no ELSEIF: ${ELSE_IF}`],
  ['ELIF', `there is no ELIF: ${ELSE_IF}`],
  ['ELSIF', `there is no ELSIF: ${ELSE_IF}`],
  ['WHILE', `there is no WHILE loop: ${LOOP_ADVICE}`],
  ['BREAK', 'there is no BREAK: a FOR loop always runs over its whole list; loop over a shorter list (SLICE) or guard the body with IF ... END'],
  ['CONTINUE', 'there is no CONTINUE: guard the rest of the loop body with IF ... END'],
  ['RETURN', 'there is no RETURN: a script ends after its last statement (PRINT a result to show it; to stop early, put the rest inside IF ... END)'],
  ['FUNCTION', 'scripts cannot define functions: use the built-ins and tools'],
  ['DEF', 'scripts cannot define functions: use the built-ins and tools'],
  ['ENDIF', 'write END: one END closes any IF or FOR'],
  ['ENDFOR', 'write END: one END closes any IF or FOR'],
  ['END_IF', 'write END: one END closes any IF or FOR'],
  ['ENDWHILE', 'write END: one END closes any IF or FOR'],
  ['FI', 'write END: one END closes any IF or FOR'],
  ['DONE', 'write END: one END closes any IF or FOR'],
  ['AWAIT', 'there is no `await`: remove it (every CALL waits for its result)'],
  ['CONST', 'write LET: a variable is set with LET name = value'],
  ['VAR', 'write LET: a variable is set with LET name = value'],
  ['TRY', 'there is no try/except: remove it (a CALL that fails stops the script with its error)'],
  ['EXCEPT', 'there is no try/except: remove the except block (a CALL that fails stops the script with its error)'],
]);

/** The words the mistakes pass looks at, by their exact spelling. */
export type MistakeWord =
  | { kind: 'keyword'; keyword: (typeof KEYWORDS)[number] }
  | { kind: 'literal'; literal: 'true' | 'false' | 'null' }
  | { kind: 'elseif' | 'while' | 'jump' | 'end' | 'print' };

function casings(word: string): string[] {
  const lower = word.toLowerCase();
  return [...new Set([word, lower, lower[0]!.toUpperCase() + lower.slice(1)])];
}

export const MISTAKE_WORDS: ReadonlyMap<string, MistakeWord> = (() => {
  const words = new Map<string, MistakeWord>();
  for (const keyword of KEYWORDS) for (const spelling of casings(keyword)) if (spelling !== keyword) words.set(spelling, { kind: 'keyword', keyword });
  for (const [spelling, literal] of LITERAL_WORDS) words.set(spelling, { kind: 'literal', literal });
  const groups: Array<[MistakeWord['kind'], string[]]> = [
    ['elseif', ['ELSEIF', 'ELIF', 'ELSIF', 'ElseIf']],
    ['while', ['WHILE']],
    ['jump', ['BREAK', 'CONTINUE', 'RETURN']],
    ['end', ['ENDIF', 'ENDFOR', 'END_IF', 'ENDWHILE', 'EndIf', 'FI', 'DONE']],
    ['print', ['PRINT', 'ECHO']],
  ];
  for (const [kind, names] of groups) for (const name of names) for (const spelling of casings(name)) words.set(spelling, { kind } as MistakeWord);
  return words;
})();

export function keywordCaseHint(keyword: string): string {
  return `keywords are uppercase: write \`${keyword}\``;
}

export function literalHint(literal: string): string {
  return `literals are lowercase: write \`${literal}\``;
}

/** The message for a construct of another language, by its name (any case). */
export function constructHint(name: string): string | undefined {
  return MISSING_CONSTRUCTS.get(name.toUpperCase());
}

/** A hint when `name` looks like a keyword, literal or construct written the wrong way. */
export function nameHint(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (name !== upper && KEYWORD_SET.has(upper)) return keywordCaseHint(upper);
  const literal = LITERAL_WORDS.get(name);
  if (literal !== undefined) return literalHint(literal);
  return MISSING_CONSTRUCTS.get(upper);
}

/** Methods of other languages and the built-in that does the job (`s.upper()` → UPPER(s)). */
const METHOD_BUILTINS: ReadonlyMap<string, string> = new Map([
  ['length', 'LEN'], ['len', 'LEN'], ['size', 'LEN'], ['count', 'LEN'],
  ['upper', 'UPPER'], ['toUpperCase', 'UPPER'], ['lower', 'LOWER'], ['toLowerCase', 'LOWER'],
  ['strip', 'TRIM'], ['trim', 'TRIM'], ['split', 'SPLIT'], ['join', 'JOIN'], ['replace', 'REPLACE'], ['replaceAll', 'REPLACE'],
  ['append', 'APPEND'], ['push', 'APPEND'], ['keys', 'KEYS'], ['sort', 'SORT'], ['sorted', 'SORT'], ['reverse', 'REVERSE'],
  ['slice', 'SLICE'], ['substring', 'SLICE'], ['contains', 'CONTAINS'], ['includes', 'CONTAINS'], ['has', 'CONTAINS'],
  ['format', 'FORMAT'], ['toString', 'STR'], ['str', 'STR'], ['round', 'ROUND'], ['toFixed', 'ROUND'],
  ['startsWith', 'SLICE'], ['endsWith', 'SLICE'], ['startswith', 'SLICE'], ['endswith', 'SLICE'], ['indexOf', 'CONTAINS'], ['find', 'CONTAINS'],
  ['get', 'GET'], ['getOrDefault', 'GET'], ['set', 'SET'], ['put', 'SET'], ['sum', 'SUM'],
]);

/** The built-in that replaces method `name`, if any. */
export function builtinForMethod(name: string): string | undefined {
  return METHOD_BUILTINS.get(name) ?? METHOD_BUILTINS.get(name.toLowerCase());
}

const TAKES_ONE = new Set(['LEN', 'UPPER', 'LOWER', 'TRIM', 'KEYS', 'STR', 'REVERSE', 'SUM']);

/** `s.upper()`: there are no methods; name the built-in to call instead. */
export function methodCallHint(object: string, method: string): string {
  const builtin = builtinForMethod(method);
  if (builtin === 'APPEND') return `there are no methods: write LET ${object} = APPEND(${object}, ...)`;
  if (builtin === 'SET') return `there are no methods: write LET ${object} = SET(${object}, key, value)`;
  if (builtin === 'SLICE' && /^(starts|ends)with$/i.test(method)) {
    return `there are no methods: compare a SLICE, e.g. SLICE(${object}, ${/^ends/i.test(method) ? '-4' : '0, 4'}) == "..."`;
  }
  if (builtin) return `there are no methods: write ${builtin}(${object}${TAKES_ONE.has(builtin) ? '' : ', ...'})`;
  return `there are no methods: call a built-in function on ${object} (LEN, UPPER, SPLIT, CONTAINS, SLICE...)`;
}

/** How a message names an expression: `items`, `order.total`, `rows[0]`; else `fallback`. */
export function expressionName(node: { type: string; name?: string; object?: unknown; property?: string; index?: unknown; value?: unknown }, fallback: string, depth = 0): string {
  if (depth > 4) return fallback;
  if (node.type === 'Variable') return node.name!;
  if (node.type === 'Member') {
    const object = expressionName(node.object as typeof node, '', depth + 1);
    return object ? `${object}.${node.property}` : fallback;
  }
  if (node.type === 'Index' && (node.index as typeof node).type === 'Literal') {
    const object = expressionName(node.object as typeof node, '', depth + 1);
    return object ? `${object}[${JSON.stringify((node.index as typeof node).value)}]` : fallback;
  }
  return fallback;
}

/** `get_weather { ... }` or `get_weather(...)`: a tool called without CALL. */
export function callToolHint(name: string): string {
  return `tools are called with CALL: write CALL ${name} { ... }`;
}

/** `PRINT x`: PRINT without parentheses; `argument` is what followed it on the line. */
export function printHint(name: string, argument = '...'): string {
  if (name.toUpperCase() !== 'PRINT') return `there is no \`${name}\`: write PRINT(${argument})`;
  return `PRINT is a function: write PRINT(${argument}) with parentheses${name === 'PRINT' ? '' : ', in capitals'}`;
}
