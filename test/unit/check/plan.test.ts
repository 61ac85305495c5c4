// plan(): every reachable CALL with its bound, against hand-computed values.
import { describe, expect, it } from 'vitest';
import { Interpreter, parse, plan, ToolRegistry, type Plan } from '../../../src/index.js';
import { registerCheckTools } from '../../check/tools.js';

const registry = new ToolRegistry();
registerCheckTools(registry);

/** `tool@line ≤ maxCount` for each planned call, in order. */
function bounds(source: string, options: Parameters<typeof plan>[2] = {}): string[] {
  return plan(source, registry, options).calls.map((c) => `${c.tool}@${c.line} ${c.maxCount === null ? 'unbounded' : `≤ ${c.maxCount}`}`);
}

describe('plan bounds', () => {
  it('a call at the top level runs at most once', () => {
    expect(bounds('CALL get_price { symbol: "AAPL" }')).toEqual(['get_price@1 ≤ 1']);
  });

  it('a loop over a literal list multiplies by its length; nested loops multiply', () => {
    const source = `
      FOR s IN ["AAPL", "MSFT", "GOOG"] DO
        CALL get_price { symbol: s }
        FOR side IN ["buy", "sell"] DO
          CALL place_order { symbol: s, side: side, qty: 1 }
        END
      END`;
    expect(bounds(source)).toEqual(['get_price@3 ≤ 3', 'place_order@5 ≤ 6']);
  });

  it('a loop over a variable bound to a literal list, and to one of two lists (the longer counts)', () => {
    const source = `
      LET watch = ["AAPL", "MSFT"]
      FOR s IN watch DO
        CALL get_price { symbol: s }
      END
      IF flag THEN
        LET pick = ["A", "B", "C", "D"]
      ELSE
        LET pick = ["A"]
      END
      FOR s IN pick DO
        CALL get_price { symbol: s }
      END`;
    expect(bounds(source, { variables: ['flag'] })).toEqual(['get_price@4 ≤ 2', 'get_price@12 ≤ 4']);
  });

  it('a loop over a list of literal lists bounds the inner loop by the longest', () => {
    const source = `
      FOR row IN [["A", "B"], ["C"], ["D", "E"]] DO
        FOR s IN row DO
          CALL get_price { symbol: s }
        END
      END`;
    expect(bounds(source)).toEqual(['get_price@4 ≤ 6']);
  });

  it('both branches of an IF count, and needsApproval sums them per tool', () => {
    const source = `
      IF go THEN
        CALL place_order { symbol: "AAPL", side: "buy", qty: 1 }
      ELSE
        FOR s IN ["A", "B"] DO
          CALL place_order { symbol: s, side: "sell", qty: 1 }
        END
      END
      CALL delete_file { path: "a.txt" }
      CALL read_file { path: "b.txt" }`;
    const result = plan(source, registry, { variables: ['go'] });
    expect(result.calls.map((c) => [c.tool, c.confirm, c.category, c.line, c.column, c.maxCount])).toEqual([
      ['place_order', 'write', 'network', 3, 9, 1],
      ['place_order', 'write', 'network', 6, 11, 2],
      ['delete_file', 'destructive', 'file', 9, 7, 1],
      ['read_file', 'read', 'file', 10, 7, 1],
    ]);
    expect(result.needsApproval).toEqual([
      { tool: 'place_order', confirm: 'write', maxCount: 3 },
      { tool: 'delete_file', confirm: 'destructive', maxCount: 1 },
    ]);
    expect(result.ok).toBe(true);
  });

  it('which levels need approval is an option (interpreter.plan uses the interpreter\'s)', () => {
    const source = 'CALL read_file { path: "a" }\nCALL delete_file { path: "b" }';
    expect(plan(source, registry, { needsApproval: ['read', 'write', 'destructive'] }).needsApproval.map((n) => n.tool)).toEqual(['read_file', 'delete_file']);
    const interpreter = new Interpreter(registry, { needsApproval: ['read'] });
    expect(interpreter.plan(source).needsApproval).toEqual([{ tool: 'read_file', confirm: 'read', maxCount: 1 }]);
  });

  it('a loop over a value known only at run time is unbounded, and so is everything inside it', () => {
    const source = `
      FOR s IN CALL list_symbols {} DO
        FOR side IN ["buy", "sell"] DO
          CALL place_order { symbol: s, side: side, qty: 1 }
        END
      END
      FOR s IN symbols DO
        CALL get_price { symbol: s }
      END`;
    expect(bounds(source, { variables: ['symbols'] })).toEqual(['list_symbols@2 ≤ 1', 'place_order@4 unbounded', 'get_price@8 unbounded']);
    const result = plan(source, registry, { variables: ['symbols'] });
    expect(result.needsApproval).toEqual([{ tool: 'place_order', confirm: 'write', maxCount: null }]);
  });

  it('a tool that declares maxItems bounds a loop over its result', () => {
    expect(bounds('FOR s IN CALL top3 {} DO\n  CALL get_price { symbol: s }\nEND')).toEqual(['top3@1 ≤ 1', 'get_price@2 ≤ 3']);
  });

  it('a list reassigned inside a loop is not known after it', () => {
    const source = `
      LET xs = ["A"]
      FOR i IN [1, 2, 3] DO
        LET xs = APPEND(xs, "B")
      END
      FOR s IN xs DO
        CALL get_price { symbol: s }
      END`;
    expect(bounds(source)).toEqual(['get_price@7 unbounded']);
  });

  it('calls that cannot run are not in the plan: a constant-false branch, an empty loop, after a certain failure', () => {
    const source = `
      IF false THEN
        CALL delete_file { path: "x" }
      END
      FOR s IN [] DO
        CALL delete_file { path: s }
      END
      IF true THEN
        CALL get_price { symbol: "A" }
      ELSE
        CALL delete_file { path: "y" }
      END
      PRINT(LEN())
      CALL delete_file { path: "z" }`;
    const result = plan(source, registry);
    expect(result.calls.map((c) => `${c.tool}@${c.line}`)).toEqual(['get_price@9']);
    expect(result.needsApproval).toEqual([]);
    expect(result.ok).toBe(false);
  });

  it('a call whose arguments are certainly wrong never runs: it is a problem, not a planned call', () => {
    const result = plan('CALL place_order { symbol: "A", side: "hold", qty: 1 }', registry);
    expect(result.calls).toEqual([]);
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => p.kind)).toEqual(['ToolArgumentError']);
  });

  it('calls are listed in source order, also when one is an argument of another', () => {
    expect(bounds('CALL echo { value: CALL get_price { symbol: "A" } }')).toEqual(['echo@1 ≤ 1', 'get_price@1 ≤ 1']);
  });

  it('a call in a comprehension\'s element runs once per item, like a FOR, and is marked concurrent', () => {
    const source = `
      LET symbols = ["AAPL", "MSFT", "GOOG"]
      LET prices = [CALL get_price { symbol: s } FOR s IN symbols]
      LET orders = [[CALL place_order { symbol: s, side: side, qty: 1 } FOR side IN ["buy", "sell"]] FOR s IN symbols IF s != "GOOG"]
      FOR s IN symbols DO
        LET quotes = [CALL get_quote { symbol: q } FOR q IN CALL top3 {}]
      END`;
    const result = plan(source, registry);
    expect(result.calls.map((c) => [c.tool, c.line, c.maxCount, c.concurrent])).toEqual([
      ['get_price', 3, 3, true],
      ['place_order', 4, 6, true],
      ['get_quote', 6, 9, true],
      ['top3', 6, 3, undefined],
    ]);
    // the key is absent on calls outside comprehensions, as plan() made them before comprehensions
    expect(Object.keys(result.calls[3]!)).toEqual(['tool', 'confirm', 'category', 'line', 'column', 'maxCount']);
    expect(result.needsApproval).toEqual([{ tool: 'place_order', confirm: 'write', maxCount: 6 }]);
  });

  it('a comprehension over a list known only at run time is unbounded; over an empty list, or with a false condition, never runs', () => {
    const source = `
      LET a = [CALL get_price { symbol: s } FOR s IN CALL list_symbols {}]
      LET b = [CALL delete_file { path: p } FOR p IN []]
      LET c = [CALL delete_file { path: p } FOR p IN ["x"] IF false]
      LET d = [CALL read_file { path: p } FOR p IN ["x"] IF CALL echo { value: true }]`;
    expect(plan(source, registry).calls.map((c) => `${c.tool}@${c.line} ${c.maxCount ?? 'unbounded'}${c.concurrent ? ' concurrent' : ''}`)).toEqual([
      'get_price@2 unbounded concurrent',
      'list_symbols@2 1',
      'read_file@5 1 concurrent',
      'echo@5 1 concurrent',
    ]);
  });

  it('a script with syntax errors has no plan', () => {
    const result: Plan = plan('LET = 1', registry);
    expect(result).toMatchObject({ ok: false, calls: [], needsApproval: [], scriptHash: '' });
    expect(result.problems[0]!.kind).toBe('SyntaxError');
  });
});

describe('plan scriptHash', () => {
  it('is the same for the same program laid out differently, and accepts a parsed AST', () => {
    const a = plan('LET x = 1\nCALL get_price { symbol: "A" } // comment', registry).scriptHash;
    const b = plan('LET x = 1 CALL get_price {symbol:"A"}', registry).scriptHash;
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(plan(parse('LET x = 1\nCALL get_price { symbol: "A" }'), registry).scriptHash).toBe(a);
  });

  it('differs when a name, a literal or the structure changes', () => {
    const base = plan('LET x = 1\nCALL get_price { symbol: "A" }', registry).scriptHash;
    expect(plan('LET y = 1\nCALL get_price { symbol: "A" }', registry).scriptHash).not.toBe(base);
    expect(plan('LET x = 1\nCALL get_price { symbol: "B" }', registry).scriptHash).not.toBe(base);
    expect(plan('LET x = "1"\nCALL get_price { symbol: "A" }', registry).scriptHash).not.toBe(base);
    expect(plan('CALL get_price { symbol: "A" }\nLET x = 1', registry).scriptHash).not.toBe(base);
  });

  it('hashes a chain thousands of links long without running out of stack', () => {
    const source = `LET x = 1${' + 1'.repeat(20_000)}\nCALL get_price { symbol: "A" }`;
    const result = plan(source, registry);
    expect(result.scriptHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.calls).toHaveLength(1);
  });
});
