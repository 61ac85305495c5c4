// Which part of the parser's grammar is the language. The parser (src/syntax/grammar.ts) accepts
// more than Nuwa Script: other languages' constructs (WHILE, ELSEIF, `CALL t(...)`, ...), parsed so
// that each is reported once with its fix while the rest of the script is still checked, and the
// stand-ins of staged parsing (stage.ts). It also consumes token categories that stand for one
// token of the language plus the mistakes made in its place (`DoWord` is DO, or THEN or `:` where
// DO belongs). grammar/nuwa.ebnf and the syntax diagrams describe the language (LANGUAGE.md §3-4),
// so both are compared with, or drawn from, the parser's grammar without these parts.
//
// The three tables say what is parser-only. They are checked against the parser: an entry that
// matches nothing (or more than one production) is reported, and anything parser-only that is not
// listed stays in the language grammar, where the EBNF check then reports it. So a rule of the
// language that changes on one side only still fails the check.
import type { ISerializedGast } from 'chevrotain';
import { allTokens } from '../../src/syntax/tokens.js';

/** Rules that exist only to parse another language's construct, with what they accept. */
export const PARSER_ONLY_RULES: Readonly<Record<string, string>> = {
  whileStatement: 'WHILE cond DO ... END: there are no WHILE loops',
  jumpStatement: 'RETURN, BREAK, CONTINUE',
};

/**
 * Productions (an alternative, an optional part, a repetition) of the language's rules that are
 * parser-only: the rule, the symbols that can start the production (tokens and rules, not
 * expanded), and what it accepts.
 */
export const PARSER_ONLY_PRODUCTIONS: ReadonlyArray<{ rule: string; startsWith: string[]; accepts: string }> = [
  { rule: 'statement', startsWith: ['whileStatement'], accepts: 'a WHILE loop' },
  { rule: 'statement', startsWith: ['jumpStatement'], accepts: 'RETURN, BREAK, CONTINUE' },
  { rule: 'letStatement', startsWith: ['Dot', 'LBracket'], accepts: '`LET x.y = v`, `LET x[i] = v` (LET sets a whole variable)' },
  { rule: 'ifStatement', startsWith: ['ElseIf'], accepts: 'ELSEIF / ELIF chains sharing one END' },
  { rule: 'ifStatement', startsWith: ['Colon'], accepts: '`ELSE:`' },
  { rule: 'forStatement', startsWith: ['Comma'], accepts: '`FOR k, v IN obj`' },
  { rule: 'operand', startsWith: ['argumentList'], accepts: '`x.f(...)`, a method call' },
  { rule: 'callExpression', startsWith: ['LParen'], accepts: '`CALL t(a: 1)`, arguments in parentheses' },
  { rule: 'comprehensionClause', startsWith: ['ComprehensionFor', 'ComprehensionIf'], accepts: 'a second FOR or IF in one list comprehension, as Python nests them' },
  { rule: 'listLiteral', startsWith: ['ComprehensionIf'], accepts: 'an IF (and ELSE) before a comprehension\'s FOR, as Python writes `[a if c else b for x in xs]`' },
  { rule: 'block', startsWith: ['PrebuiltBlock'], accepts: 'statements the staged parser has already parsed' },
  { rule: 'primary', startsWith: ['PrebuiltExpression'], accepts: 'an expression the staged parser has already parsed' },
];

/**
 * The members of each token category the parser consumes that are not the language's. What is
 * left is what the category stands for: one token (ThenWord is THEN), or, for the operator
 * categories, the tokens the EBNF's token rule of the same name lists (binaryOperator).
 */
export const PARSER_ONLY_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  ThenWord: ['Colon'], // `IF x:`
  DoWord: ['THEN', 'Colon'], // `FOR x IN xs THEN`, `FOR x IN xs:`
  KeySeparator: ['Assign'], // `{ city = "Oslo" }`
  AnyAssign: ['CompoundAssign'], // `LET n += 1`
  // `IF x IN xs`, `IF a = 1`, `x = 1` without LET, `===`, `<>`, `+=`, `&&`, `||`, an arrow function's `=>`
  BinaryOperator: ['IN', 'Assign', 'ReportedAssign', 'StrictEquality', 'LessGreater', 'CompoundAssign', 'AmpAmp', 'BarBar', 'Arrow'],
  PrefixOperator: ['Bang', 'Spread'], // `!x`, `...xs`
};

/**
 * Tokens no text lexes to, which a pass gives to a keyword where it plays another part: the word
 * they are written as (src/syntax/comprehensions.ts: the FOR and IF of a list comprehension).
 */
export const RETYPED_KEYWORDS: Readonly<Record<string, string>> = {
  ComprehensionFor: 'FOR',
  ComprehensionIf: 'IF',
};

type Node = ISerializedGast & { name?: string; definition?: Node[]; separator?: Node };

const PRODUCTIONS = new Set(['Alternative', 'Option', 'Repetition', 'RepetitionMandatory', 'RepetitionWithSeparator', 'RepetitionMandatoryWithSeparator']);
const OPTIONAL = new Set(['Option', 'Repetition', 'RepetitionWithSeparator']);

/** The symbols that can start a sequence of nodes (rules are not expanded: their names stand for them). */
function firstSymbols(nodes: Node[]): Set<string> {
  const first = new Set<string>();
  for (const node of nodes) {
    if (node.type === 'Terminal' || node.type === 'NonTerminal') {
      first.add(node.name!);
      return first;
    }
    if (node.type === 'Alternation') {
      for (const alternative of node.definition ?? []) for (const symbol of firstSymbols(alternative.definition ?? [])) first.add(symbol);
      return first;
    }
    for (const symbol of firstSymbols(node.definition ?? [])) first.add(symbol);
    if (!OPTIONAL.has(node.type)) return first;
  }
  return first;
}

const sameSet = (a: Set<string>, b: readonly string[]) => a.size === b.length && b.every((x) => a.has(x));

/** The category's member tokens, by name. */
export function membersOf(category: string): string[] {
  return allTokens.filter((t) => t.CATEGORIES?.some((c) => c.name === category) && t.name !== category).map((t) => t.name);
}

/** The members of a category that the language has there (all members but the parser-only ones). */
export function languageMembers(category: string): string[] {
  const extra = PARSER_ONLY_MEMBERS[category] ?? [];
  return membersOf(category).filter((name) => !extra.includes(name));
}

/**
 * The parser's grammar without its parser-only rules and productions, and every way the tables
 * above disagree with it.
 */
export function languageGrammar(grammar: ISerializedGast[]): { rules: ISerializedGast[]; problems: string[] } {
  const problems: string[] = [];
  const names = new Set(grammar.map((rule) => (rule as Node).name!));
  for (const name of Object.keys(PARSER_ONLY_RULES)) if (!names.has(name)) problems.push(`scripts/grammar/language.ts lists ${name} as a parser-only rule, but the parser has no such rule`);
  for (const [category, extra] of Object.entries(PARSER_ONLY_MEMBERS)) {
    const members = membersOf(category);
    if (members.length === 0) problems.push(`scripts/grammar/language.ts lists ${category} as a token category, but the lexer has no such category`);
    for (const name of extra) if (members.length > 0 && !members.includes(name)) problems.push(`scripts/grammar/language.ts lists ${name} as a parser-only member of ${category}, but it is not one`);
  }

  const matches = PARSER_ONLY_PRODUCTIONS.map(() => 0);
  /** The nodes without the parser-only productions (a copy: the parser's grammar is left alone). */
  const strip = (rule: string, nodes: Node[]): Node[] => {
    const kept: Node[] = [];
    for (const node of nodes) {
      if (PRODUCTIONS.has(node.type)) {
        const first = firstSymbols(node.definition ?? []);
        const entry = PARSER_ONLY_PRODUCTIONS.findIndex((p) => p.rule === rule && sameSet(first, p.startsWith));
        if (entry >= 0) {
          matches[entry]!++;
          continue;
        }
      }
      kept.push(node.definition ? { ...node, definition: strip(rule, node.definition) } : node);
    }
    return kept;
  };
  const rules = grammar.filter((rule) => !((rule as Node).name! in PARSER_ONLY_RULES)).map((rule) => ({ ...rule, definition: strip((rule as Node).name!, (rule as Node).definition ?? []) }));
  PARSER_ONLY_PRODUCTIONS.forEach((entry, i) => {
    if (matches[i] !== 1) {
      const found = matches[i] === 0 ? 'no production' : `${matches[i]} productions`;
      problems.push(`scripts/grammar/language.ts: the parser-only production of ${entry.rule} that starts with ${entry.startsWith.join(' or ')} (${entry.accepts}) matches ${found} of the parser`);
    }
  });

  // What is left must not lead into a parser-only rule.
  const walk = (rule: string, nodes: Node[]) => {
    for (const node of nodes) {
      if (node.type === 'NonTerminal' && node.name! in PARSER_ONLY_RULES) problems.push(`rule ${rule} uses the parser-only rule ${node.name} outside the productions listed in scripts/grammar/language.ts`);
      if (node.definition) walk(rule, node.definition);
    }
  };
  for (const rule of rules) walk((rule as Node).name!, (rule as Node).definition ?? []);
  return { rules, problems };
}
