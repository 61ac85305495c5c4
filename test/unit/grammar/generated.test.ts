// The files `npm run grammar` derives from the parser and the language's metadata are committed;
// these tests fail when they are stale, when grammar/nuwa.ebnf disagrees with the parser, or when
// the diagrams page would need the network.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { checkEbnf } from '../../../scripts/grammar/ebnf.js';
import { generatedFiles, ROOT } from '../../../scripts/grammar/files.js';
import { languageGrammar, PARSER_ONLY_RULES } from '../../../scripts/grammar/language.js';
import { serializedGrammar } from '../../../src/syntax/parser.js';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const EBNF = read('grammar/nuwa.ebnf');

describe('generated grammar files', () => {
  it.each(Object.entries(generatedFiles()))('%s is up to date', (file, expected) => {
    let committed: string | undefined;
    try {
      committed = read(file);
    } catch {
      committed = undefined;
    }
    expect(committed === expected, `${file} is stale: run \`npm run grammar\` and commit the result`).toBe(true);
  });

  it('the VS Code extension uses the same grammar file and scope name', () => {
    const manifest = JSON.parse(read('editors/vscode/package.json')) as {
      contributes: { languages: Array<{ id: string; extensions: string[]; configuration: string }>; grammars: Array<{ language: string; scopeName: string; path: string }> };
    };
    const [language] = manifest.contributes.languages;
    const [grammar] = manifest.contributes.grammars;
    expect(language).toMatchObject({ id: 'nuwa', extensions: ['.nuwa'] });
    expect(grammar).toMatchObject({ language: 'nuwa', scopeName: 'source.nuwa' });
    expect(read(path.join('editors/vscode', grammar!.path))).toBe(read('grammar/nuwa.tmLanguage.json'));
    const configuration = JSON.parse(read(path.join('editors/vscode', language!.configuration))) as { comments: { lineComment: string }; brackets: string[][] };
    expect(configuration.comments.lineComment).toBe('//');
    expect(configuration.brackets).toEqual([['{', '}'], ['[', ']'], ['(', ')']]);
  });
});

type Node = { type: string; name?: string; definition?: Node[] };
/** A copy of the parser's grammar, edited by `edit` (standing in for a change to src/syntax/grammar.ts). */
function editedGrammar(edit: (rules: Map<string, Node>) => void): ReturnType<typeof serializedGrammar> {
  const grammar = JSON.parse(JSON.stringify(serializedGrammar())) as Node[];
  edit(new Map(grammar.map((rule) => [rule.name!, rule])));
  return grammar as unknown as ReturnType<typeof serializedGrammar>;
}
const terminal = (name: string): Node => ({ type: 'Terminal', name });

describe('grammar/nuwa.ebnf against the parser', () => {
  it('agrees with the parser (run `npm run grammar` for the details)', () => {
    expect(checkEbnf(EBNF, serializedGrammar()), 'grammar/nuwa.ebnf disagrees with the parser: `npm run grammar` lists how').toEqual([]);
  });

  it('leaves out what the parser accepts only to report it, and reads categories as the token they stand for', () => {
    const { rules, problems } = languageGrammar(serializedGrammar());
    expect(problems).toEqual([]);
    const text = JSON.stringify(rules);
    for (const parserOnly of ['ElseIf', 'While', 'Jump', 'PrebuiltBlock', 'PrebuiltExpression', ...Object.keys(PARSER_ONLY_RULES)]) expect(text).not.toContain(`"${parserOnly}"`);
    // ThenWord stands for THEN: an EBNF that writes DO there is wrong.
    const problemsWithDo = checkEbnf(EBNF.replace('"IF" expression "THEN"', '"IF" expression "DO"'), serializedGrammar());
    expect(problemsWithDo).toContain('rule ifStatement: the parser consumes token THEN, which the EBNF rule does not mention');
    expect(problemsWithDo).toContain("rule ifStatement: the EBNF mentions token DO, which the parser's rule does not consume");
  });

  it('fails when a rule of the language changes on one side only', () => {
    // The EBNF drops ELSE; then the parser drops it instead.
    expect(checkEbnf(EBNF.replace('[ "ELSE" block ] ', ''), serializedGrammar())).toContain('rule ifStatement: the parser consumes token ELSE, which the EBNF rule does not mention');
    const withoutElse = editedGrammar((rules) => {
      const ifStatement = rules.get('ifStatement')!;
      ifStatement.definition = ifStatement.definition!.filter((node) => !(node.type === 'Option' && node.definition![0]!.name === 'ELSE'));
    });
    expect(checkEbnf(EBNF, withoutElse)).toContain("rule ifStatement: the EBNF mentions token ELSE, which the parser's rule does not consume");
  });

  it('fails when the parser gains a recovery not listed as parser-only, or a listed one disappears', () => {
    const withWhileInFor = editedGrammar((rules) => rules.get('forStatement')!.definition!.push({ type: 'Option', definition: [terminal('While')] }));
    expect(checkEbnf(EBNF, withWhileInFor)).toContain('rule forStatement: the parser consumes token While, which the EBNF rule does not mention');
    const withoutParentheses = editedGrammar((rules) => {
      const alternation = rules.get('callExpression')!.definition!.find((node) => node.type === 'Alternation')!;
      alternation.definition = alternation.definition!.slice(0, 1);
    });
    expect(checkEbnf(EBNF, withoutParentheses).some((p) => p.startsWith('scripts/grammar/language.ts: the parser-only production of callExpression that starts with LParen') && p.endsWith('matches no production of the parser'))).toBe(true);
    const whileUsedInBlock = editedGrammar((rules) => rules.get('block')!.definition!.push({ type: 'NonTerminal', name: 'whileStatement' }));
    expect(checkEbnf(EBNF, whileUsedInBlock)).toContain('rule block uses the parser-only rule whileStatement outside the productions listed in scripts/grammar/language.ts');
  });

  it('checks that the operator rules list exactly the operators of the language', () => {
    const withoutPercent = EBNF.replace('| "*" | "/" | "%" ;', '| "*" | "/" ;');
    expect(checkEbnf(withoutPercent, serializedGrammar())).toContain("token rule binaryOperator does not list Percent, which the lexer's category BinaryOperator has");
    const withAmpAmp = EBNF.replace('binaryOperator  = "OR" | "AND"', 'binaryOperator  = "OR" | "&&" | "AND"');
    expect(checkEbnf(withAmpAmp, serializedGrammar())).toContain('token rule binaryOperator lists "&&", which the parser accepts only to report it (parser-only in scripts/grammar/language.ts)');
    const withThen = EBNF.replace('prefixOperator  = "NOT"', 'prefixOperator  = "THEN" | "NOT"');
    expect(checkEbnf(withThen, serializedGrammar())).toContain('token rule prefixOperator lists "THEN", which is not in the lexer\'s category PrefixOperator');
  });

  it('reports a parser rule the EBNF lacks', () => {
    const edited = EBNF.replace(/nameOrFunctionCall\s*\n\s*= identifier[^;]*;/, '');
    expect(checkEbnf(edited, serializedGrammar())).toContain("the parser's rule nameOrFunctionCall is missing from the EBNF");
  });

  it('reports an EBNF rule the parser does not have', () => {
    const edited = EBNF.replace('callExpression  = "CALL" identifier { "." identifier } objectLiteral ;', 'callExpression  = "CALL" toolName objectLiteral ;\ntoolName = identifier { "." identifier } ;');
    const problems = checkEbnf(edited, serializedGrammar());
    expect(problems.some((p) => p.startsWith('rule toolName is neither a rule of the parser nor a token'))).toBe(true);
    expect(problems).toContain('rule callExpression: the parser consumes token Dot, which the EBNF rule does not mention');
  });

  it('reports a token that does not exist and a sub-rule the parser does not use', () => {
    const edited = EBNF.replace('letStatement    = "LET" identifier "=" expression ;', 'letStatement    = "LET" identifier ":=" block ;');
    const problems = checkEbnf(edited, serializedGrammar());
    expect(problems).toContain('rule letStatement names ":=", which is not a token of the lexer');
    expect(problems).toContain('rule letStatement: the EBNF mentions rule block, which the parser\'s rule does not use');
    expect(problems).toContain('rule letStatement: the parser uses rule expression, which the EBNF rule does not mention');
  });

  it('reports an operator the lexer does not have', () => {
    const edited = EBNF.replace('prefixOperator  = "NOT" | "-" | "+" ;', 'prefixOperator  = "NOT" | "-" | "+" | "~" ;');
    expect(checkEbnf(edited, serializedGrammar())).toContain('token rule prefixOperator lists "~", which is not a token of the lexer');
  });
});

describe('grammar/syntax-diagrams.html', () => {
  const html = read('grammar/syntax-diagrams.html');

  it('loads nothing from the network', () => {
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it('draws one diagram per rule of the language (the parser without its parser-only rules) with its inline scripts', () => {
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThanOrEqual(5);
    const target = { innerHTML: '' };
    const window: Record<string, unknown> = {
      document: { getElementById: () => target, getElementsByClassName: () => [], getElementsByTagName: () => [] },
    };
    window.window = window;
    const context = vm.createContext(window);
    for (const script of scripts) vm.runInContext(script, context);
    const rules = languageGrammar(serializedGrammar()).rules.map((rule) => (rule as unknown as { name: string }).name);
    const svgs = target.innerHTML.match(/<svg/g) ?? [];
    expect(svgs.length).toBe(rules.length);
    for (const rule of rules) expect(target.innerHTML).toContain(`>${rule}<`);
    for (const rule of Object.keys(PARSER_ONLY_RULES)) expect(target.innerHTML).not.toContain(`>${rule}<`);
  });
});
