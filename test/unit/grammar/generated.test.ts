// The files `npm run grammar` derives from the parser and the language's metadata are committed;
// these tests fail when they are stale, when grammar/nuwa.ebnf disagrees with the parser, or when
// the diagrams page would need the network.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { checkEbnf } from '../../../scripts/grammar/ebnf.js';
import { generatedFiles, ROOT } from '../../../scripts/grammar/files.js';
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

describe('grammar/nuwa.ebnf against the parser', () => {
  it('agrees with the parser (run `npm run grammar` for the details)', () => {
    expect(checkEbnf(EBNF, serializedGrammar())).toEqual([]);
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

  it('draws one diagram per rule of the parser with its inline scripts', () => {
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThanOrEqual(5);
    const target = { innerHTML: '' };
    const window: Record<string, unknown> = {
      document: { getElementById: () => target, getElementsByClassName: () => [], getElementsByTagName: () => [] },
    };
    window.window = window;
    const context = vm.createContext(window);
    for (const script of scripts) vm.runInContext(script, context);
    const rules = serializedGrammar().map((rule) => (rule as unknown as { name: string }).name);
    const svgs = target.innerHTML.match(/<svg/g) ?? [];
    expect(svgs.length).toBe(rules.length);
    for (const rule of rules) expect(target.innerHTML).toContain(`>${rule}<`);
  });
});
