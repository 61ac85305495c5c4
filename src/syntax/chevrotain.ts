// Chevrotain, the parser library, in one place: the syntax layer imports it from here.
//
// No top-level await, so that the package loads everywhere a user loads it: `import`, `require()`,
// and bundlers. `#chevrotain` (package.json "imports") is Chevrotain's fast single-file bundle where
// Node can load it synchronously (chevrotain-sync.ts), and the package itself everywhere else.
export { createToken, EmbeddedActionsParser, EOF, getLookaheadPaths, Lexer, LLkLookaheadStrategy, serializeGrammar, tokenMatcher } from '#chevrotain';
export type { ILexingResult, ILookaheadStrategy, IOrAlt, IParserErrorMessageProvider, IToken, LookaheadProductionType, OptionalProductionType, Rule, TokenType } from 'chevrotain';
