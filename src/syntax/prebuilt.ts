// A token that stands for a run of tokens already read into a node (or a block of statements): the
// grammar consumes it whole, so that deep or unreadable input is parsed in pieces (stage.ts) or
// kept apart from the rest of its line (isolate.ts).
import type { IToken, TokenType } from './chevrotain.js';
import type { PrebuiltToken } from './grammar-expressions.js';

/** A token of `type` for the tokens `first` to `last`, carrying `payload`; positioned where `first` is. */
export function prebuiltToken<P>(type: TokenType, first: IToken, last: IToken, payload: P): PrebuiltToken<P> {
  return {
    last: (last as Partial<PrebuiltToken<unknown>>).last ?? last,
    image: first.image,
    startOffset: first.startOffset,
    startLine: first.startLine,
    startColumn: first.startColumn,
    tokenType: type,
    tokenTypeIdx: type.tokenTypeIdx!,
    payload,
  } as PrebuiltToken<P>;
}
