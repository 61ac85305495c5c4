// Checks grammar/nuwa.ebnf against the parser itself (its serialized grammar): every rule of the
// language has an EBNF rule of the same name that mentions the same sub-rules and tokens, every
// EBNF rule is a parser rule, a token, or a helper of the token rules, every token the EBNF names
// exists, and the operator token rules list exactly the operators of the lexer's categories.
// It compares which symbols each rule uses, not the shape of the rule (order, repetition): enough to
// catch a rule or token added, renamed or removed on one side only.
//
// The EBNF describes the language, not the error recovery: the parser's grammar is first reduced
// to the language's (language.ts: parser-only rules and productions left out), and a token category
// it consumes is read as the token it stands for there (ThenWord as "THEN", KeySeparator as ":").
import type { ISerializedGast } from 'chevrotain';
import { allTokens, Identifier } from '../../src/syntax/tokens.js';
import { tokensAsWritten } from '../../src/syntax/lexer.js';
import { languageGrammar, languageMembers, membersOf, RETYPED_KEYWORDS } from './language.js';

interface EbnfRule {
  name: string;
  /** Names of other rules this rule refers to. */
  references: Set<string>;
  /** Quoted literal terminals ("LET", "(") it contains. */
  literals: Set<string>;
}

/** Reads the rules of an ISO-style EBNF text: `name = ... ;`, with (* comments *), "..." / '...' literals and ? prose ?. */
export function parseEbnf(text: string): EbnfRule[] {
  const tokens = text
    .replace(/\(\*[\s\S]*?\*\)/g, ' ')
    .match(/"[^"]*"|'[^']*'|\?[^?]*\?|[A-Za-z_][A-Za-z0-9_]*|\.\.\.|[=;|\-{}[\]()]/g) ?? [];
  const rules: EbnfRule[] = [];
  let current: EbnfRule | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (current === undefined) {
      if (!/^[A-Za-z_]/.test(token) || tokens[i + 1] !== '=') throw new Error(`grammar/nuwa.ebnf: expected a rule (name = ... ;), found ${token}`);
      current = { name: token, references: new Set(), literals: new Set() };
      i++;
    } else if (token === ';') {
      rules.push(current);
      current = undefined;
    } else if (/^[A-Za-z_]/.test(token)) {
      current.references.add(token);
    } else if (/^["']/.test(token)) {
      current.literals.add(token.slice(1, -1));
    }
  }
  if (current) throw new Error(`grammar/nuwa.ebnf: rule ${current.name} has no closing ;`);
  return rules;
}

/**
 * The token a category consumed by the parser stands for in the EBNF: its one language member
 * (DoWord → DO), or the category itself when it has several (BinaryOperator, the EBNF's
 * binaryOperator); a retyped keyword stands for its word (ComprehensionFor → FOR). Any other
 * token stands for itself.
 */
function standsFor(token: string): string {
  const retyped = RETYPED_KEYWORDS[token];
  if (retyped !== undefined) return retyped;
  const members = languageMembers(token);
  return members.length === 1 ? members[0]! : token;
}

/** Symbols a parser rule uses: the rules it calls and the token types it consumes (categories read as what they stand for). */
function parserSymbols(rule: ISerializedGast): { rules: Set<string>; tokens: Set<string> } {
  const rules = new Set<string>();
  const tokens = new Set<string>();
  const walk = (nodes: ISerializedGast[]) => {
    for (const node of nodes) {
      const { name } = node as ISerializedGast & { name: string };
      if (node.type === 'NonTerminal') rules.add(name);
      else if (node.type === 'Terminal') tokens.add(standsFor(name));
      // MANY_SEP / AT_LEAST_ONE_SEP keep their separator token beside the definition.
      const separator = (node as { separator?: ISerializedGast }).separator;
      if (separator) walk([separator]);
      if ('definition' in node && Array.isArray(node.definition)) walk(node.definition as ISerializedGast[]);
    }
  };
  walk(rule.definition ?? []);
  return { rules, tokens };
}

/** The lexer token an EBNF token rule stands for: `identifier` → Identifier, `number` → NumberLiteral. */
function tokenOfRule(name: string): string | undefined {
  const lower = name.toLowerCase();
  return allTokens.find((t) => t.name.toLowerCase() === lower || t.name.toLowerCase() === `${lower}literal`)?.name;
}

/** The lexer token this text is, as the lexer reads it: "LET" → LET, "(" → LParen, "&&" → AmpAmp; a name is no token. */
function tokenOfLiteral(text: string): string | undefined {
  const tokens = tokensAsWritten(text);
  const only = tokens.length === 1 && tokens[0]!.image === text ? tokens[0]!.tokenType : undefined;
  return only === undefined || only === Identifier ? undefined : only.name;
}

/** Every disagreement between the EBNF and the parser, as one readable line each (none: they agree). */
export function checkEbnf(text: string, parserGrammar: ISerializedGast[]): string[] {
  const { rules: grammar, problems } = languageGrammar(parserGrammar);
  const ebnf = parseEbnf(text);
  const byName = new Map(ebnf.map((rule) => [rule.name, rule]));
  const parserRules = new Map(grammar.map((rule) => [(rule as ISerializedGast & { name: string }).name, rule]));

  const seen = new Set<string>();
  for (const rule of ebnf) {
    if (seen.has(rule.name)) problems.push(`rule ${rule.name} is defined more than once`);
    seen.add(rule.name);
  }
  for (const name of parserRules.keys()) {
    if (!byName.has(name)) problems.push(`the parser's rule ${name} is missing from the EBNF`);
  }

  // Rules reachable from the token rules only describe the lexer; they need no parser counterpart.
  const lexical = new Set<string>();
  const markLexical = (name: string) => {
    if (lexical.has(name) || parserRules.has(name)) return;
    lexical.add(name);
    for (const reference of byName.get(name)?.references ?? []) markLexical(reference);
  };
  for (const rule of ebnf) if (!parserRules.has(rule.name) && tokenOfRule(rule.name)) markLexical(rule.name);

  for (const rule of ebnf) {
    for (const reference of rule.references) {
      if (!byName.has(reference)) problems.push(`rule ${rule.name} refers to ${reference}, which the EBNF does not define`);
    }
    if (!parserRules.has(rule.name) && !lexical.has(rule.name)) {
      problems.push(`rule ${rule.name} is neither a rule of the parser nor a token (nor part of one): inline it into the rules that use it, or rename it after the parser's rule`);
    }
    const token = lexical.has(rule.name) ? tokenOfRule(rule.name) : undefined;
    if (token && membersOf(token).length > 0) {
      // A token rule for a category (binaryOperator): exactly the operators the language has there.
      const members = languageMembers(token);
      const listed = new Set<string>();
      for (const literal of rule.literals) {
        const member = tokenOfLiteral(literal);
        if (!member) problems.push(`token rule ${rule.name} lists "${literal}", which is not a token of the lexer`);
        else if (membersOf(token).includes(member) && !members.includes(member)) problems.push(`token rule ${rule.name} lists "${literal}", which the parser accepts only to report it (parser-only in scripts/grammar/language.ts)`);
        else if (!members.includes(member)) problems.push(`token rule ${rule.name} lists "${literal}", which is not in the lexer's category ${token}`);
        else listed.add(member);
      }
      for (const member of members) if (!listed.has(member)) problems.push(`token rule ${rule.name} does not list ${member}, which the lexer's category ${token} has`);
    }
  }

  for (const [name, parserRule] of parserRules) {
    const rule = byName.get(name);
    if (!rule) continue;
    const used = parserSymbols(parserRule);
    const ebnfRules = new Set([...rule.references].filter((r) => parserRules.has(r)));
    const ebnfTokens = new Set<string>();
    for (const reference of rule.references) {
      if (parserRules.has(reference)) continue;
      const token = tokenOfRule(reference);
      if (token) ebnfTokens.add(token);
      else problems.push(`rule ${name} refers to ${reference}, which is neither a parser rule nor a token`);
    }
    for (const literal of rule.literals) {
      const token = tokenOfLiteral(literal);
      if (token) ebnfTokens.add(token);
      else problems.push(`rule ${name} names "${literal}", which is not a token of the lexer`);
    }
    for (const r of used.rules) if (!ebnfRules.has(r)) problems.push(`rule ${name}: the parser uses rule ${r}, which the EBNF rule does not mention`);
    for (const r of ebnfRules) if (!used.rules.has(r)) problems.push(`rule ${name}: the EBNF mentions rule ${r}, which the parser's rule does not use`);
    for (const t of used.tokens) if (!ebnfTokens.has(t)) problems.push(`rule ${name}: the parser consumes token ${t}, which the EBNF rule does not mention`);
    for (const t of ebnfTokens) if (!used.tokens.has(t)) problems.push(`rule ${name}: the EBNF mentions token ${t}, which the parser's rule does not consume`);
  }
  return problems;
}
