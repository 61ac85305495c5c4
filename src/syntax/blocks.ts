// Block structure: matches every IF, FOR and WHILE with its END before the grammar runs, so that a
// missing or extra END is reported once, naming the block concerned and the line it opened on,
// instead of as "expected END but found the end of the script" at the last line.
//
// When the ENDs do not balance, the indentation tells where the author meant a block to end: a
// line indented no deeper than an open block's first line (other than its ELSE or END) ends that
// block, if the block's own body is indented. The pass then inserts the missing END there (or at the
// end of the script), removes an END that closes nothing, and the grammar parses a balanced stream.
// Text that balances is returned untouched, whatever its indentation.
import type { IToken } from './chevrotain.js';
import * as T from './tokens.js';
import type { ProblemList } from './problems.js';
import { retype } from './mistakes.js';

interface OpenBlock {
  token: IToken;
  /** Column of the first token of the line the block opened on. */
  indent: number;
  /** Whether the block's body is indented deeper than its first line (undefined: not seen yet). */
  indented: boolean | undefined;
  /** An IF with ELSE IF: its END is the one authors forget. */
  elseIf: boolean;
}

const OPENS = new Set([T.If.tokenTypeIdx, T.For.tokenTypeIdx, T.While.tokenTypeIdx]);
/** IF, FOR, WHILE and END, by tokenTypeIdx: the only tokens the quick check looks at. */
const BLOCK_WORD: boolean[] = [];
for (const type of [T.If, T.For, T.While, T.End]) BLOCK_WORD[type.tokenTypeIdx!] = true;
const END = T.End.tokenTypeIdx;
const ELSE = T.Else.tokenTypeIdx;

const kindOf = (token: IToken): string => token.tokenType.name === 'While' ? 'WHILE' : token.tokenType === T.For ? 'FOR' : 'IF';
const describe = (block: OpenBlock): string => `the ${kindOf(block.token)} opened on line ${block.token.startLine}`;

// `LET END = 1`, `FOR IF IN ...`, `x.END`: a keyword where a name should be is the grammar's to
// report ("expected a variable name"), not a block to balance.
const NAME_BEFORE = new Set([T.Let.tokenTypeIdx, T.For.tokenTypeIdx, T.ComprehensionFor.tokenTypeIdx, T.Dot.tokenTypeIdx]);
const structural = (tokens: IToken[], i: number): number => {
  const type = tokens[i]!.tokenTypeIdx;
  return i > 0 && NAME_BEFORE.has(tokens[i - 1]!.tokenTypeIdx) ? -1 : type;
};

/** True when every END closes a block and every block has an END. */
function balanced(tokens: IToken[]): { balanced: boolean; opens: number; ends: number } {
  let open = 0;
  let opens = 0;
  let ends = 0;
  let ok = true;
  for (let i = 0; i < tokens.length; i++) {
    if (!BLOCK_WORD[tokens[i]!.tokenTypeIdx]) continue;
    const type = structural(tokens, i);
    if (OPENS.has(type)) {
      open++;
      opens++;
    } else if (type === END) {
      ends++;
      if (--open < 0) {
        ok = false;
        open = 0;
      }
    }
  }
  return { balanced: ok && open === 0, opens, ends };
}

export function balanceBlocks(tokens: IToken[], problems: ProblemList): IToken[] {
  const count = balanced(tokens);
  if (count.balanced) return tokens;
  // Indentation may only account for as many missing (or extra) ENDs as the counts show.
  let missingBudget = Math.max(0, count.opens - count.ends);
  let extraBudget = Math.max(0, count.ends - count.opens);

  const out: IToken[] = [];
  const stack: OpenBlock[] = [];
  let lastClosed: { block: OpenBlock; end: IToken; at: number } | undefined;
  let line = -1;
  let lineIndent = 1;
  const closeMissing = (closed: OpenBlock[], before: IToken | undefined, byIndent: boolean) => {
    if (closed.length === 0) return;
    const where = out[out.length - 1] ?? before!;
    for (let k = 0; k < closed.length; k++) out.push(virtualEnd(before ?? where, before === undefined));
    const names = closed.map(describe).reverse();
    const subject = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
    let message = `${subject} ${names.length === 1 ? 'has' : 'have'} no END`;
    if (closed.some((b) => b.elseIf)) message += '; with ELSE IF each IF needs its own END';
    if (byIndent && before) message += `: add END before this line, where the indentation ends ${names.length === 1 ? 'it' : 'them'}`;
    // Pointed where the END is missing: before the line that ends the block, or after the last token.
    const position = before ?? where;
    problems.add({ line: position.startLine!, column: position.startColumn! + (before ? 0 : position.image.length), message });
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const type = structural(tokens, i);
    const startsLine = token.startLine !== line;
    if (startsLine) {
      line = token.startLine!;
      lineIndent = token.startColumn!;
      const top = stack[stack.length - 1];
      if (top && top.indented === undefined && line > top.token.startLine!) top.indented = lineIndent > top.indent;
      // A line indented no deeper than an open (indented) block, other than its END or ELSE, ends it.
      const closed: OpenBlock[] = [];
      while (missingBudget > 0 && stack.length > 0) {
        const block = stack[stack.length - 1]!;
        const continues = type === END || (type === ELSE && kindOf(block.token) === 'IF') || token.tokenType === T.ElseIf;
        if (!block.indented || line <= block.token.startLine! || lineIndent > block.indent || (lineIndent === block.indent && continues)) break;
        closed.push(stack.pop()!);
        missingBudget--;
      }
      closeMissing(closed, token, true);
    }

    if (OPENS.has(type)) {
      const previous = out[out.length - 1];
      if (type === T.If.tokenTypeIdx && previous?.tokenTypeIdx === ELSE && previous.startLine === token.startLine && stack.length > 0) stack[stack.length - 1]!.elseIf = true;
      stack.push({ token, indent: lineIndent, indented: undefined, elseIf: false });
      out.push(token);
      continue;
    }

    if (type === ELSE && (stack.length === 0 || kindOf(stack[stack.length - 1]!.token) !== 'IF') && lastClosed && lastClosed.at === out.length - 1 && kindOf(lastClosed.block.token) === 'IF') {
      // `... END ELSE ...`: the END before ELSE closed the IF too early; reopen it.
      problems.add({
        line: lastClosed.end.startLine!,
        column: lastClosed.end.startColumn!,
        message: `this END closes ${describe(lastClosed.block)} before its ELSE: remove it (the IF's one END comes after the ELSE branch)`,
      });
      out.pop();
      stack.push(lastClosed.block);
      lastClosed = undefined;
      if (extraBudget > 0) extraBudget--;
      else missingBudget++;
      out.push(token);
      continue;
    }

    if (type === END) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        const before = lastClosed ? ` (the last block, ${describe(lastClosed.block)}, was closed on line ${lastClosed.end.startLine})` : '';
        problems.add({ line: token.startLine!, column: token.startColumn!, message: `unexpected \`${token.image}\`: no IF or FOR is open here${before}; remove it` });
        if (extraBudget > 0) extraBudget--;
        continue;
      }
      // An END indented deeper than the (indented) block it would close, while there are ENDs to spare.
      if (extraBudget > 0 && startsLine && top.indented && lineIndent > top.indent && lastClosed && lastClosed.end.startLine! < token.startLine!) {
        problems.add({
          line: token.startLine!,
          column: token.startColumn!,
          message: `unexpected \`${token.image}\`: it would close ${describe(top)} early, but ${describe(lastClosed.block)} was already closed on line ${lastClosed.end.startLine}; remove this END`,
        });
        extraBudget--;
        continue;
      }
      stack.pop();
      out.push(token);
      lastClosed = { block: top, end: token, at: out.length - 1 };
      continue;
    }
    out.push(token);
  }
  closeMissing(stack.reverse(), undefined, false);
  return out;
}

/** A stand-in END the grammar can consume; the script has a problem, so its AST is discarded. */
function virtualEnd(near: IToken, atEnd: boolean): IToken {
  const token = retype(near, T.End, 'END');
  if (atEnd) token.startOffset = near.startOffset + near.image.length;
  return token;
}
