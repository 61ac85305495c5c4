import { describe, expect, it } from 'vitest';
import { complete, type CompletionSource } from '../../../src/cli/repl-complete.js';
import { BUILTIN_NAMES } from '../../../src/runtime/builtins.js';

const source: CompletionSource = {
  variables: () => ({ price: 1, prices: [1], order: { items: { first: 1, 'not a name': 2 }, id: 3 } }),
  toolNames: () => ['get_price', 'get_quote', 'math.add', 'math.multiply', 'place_order'],
  parameterNames: (tool) => ({ get_price: ['symbol', 'currency'], 'math.add': ['a', 'b'] })[tool] ?? [],
};

describe('REPL completion', () => {
  it('completes tool names after CALL, dotted toolset names too', () => {
    expect(complete('LET p = CALL g', source)).toEqual([['get_price', 'get_quote'], 'g']);
    expect(complete('CALL ', source)[0]).toEqual(['get_price', 'get_quote', 'math.add', 'math.multiply', 'place_order']);
    expect(complete('CALL ma', source)).toEqual([['math.add', 'math.multiply'], 'ma']);
    expect(complete('CALL math.m', source)).toEqual([['math.multiply'], 'math.m']);
    expect(complete('IF x THEN\n  CALL pl', source)).toEqual([['place_order'], 'pl']);
  });

  it('completes argument names inside a CALL\'s braces, leaving out those already given', () => {
    expect(complete('CALL get_price { ', source)).toEqual([['currency', 'symbol'], '']);
    expect(complete('CALL get_price { sy', source)).toEqual([['symbol'], 'sy']);
    expect(complete('CALL get_price { symbol: "A", ', source)).toEqual([['currency'], '']);
    expect(complete('CALL get_price {\n  "symbol": x,\n  c', source)).toEqual([['currency'], 'c']);
    expect(complete('CALL math.add { a: 1, b', source)).toEqual([['b'], 'b']);
  });

  it('completes values, not argument names, in value position', () => {
    expect(complete('CALL get_price { symbol: pr', source)).toEqual([['price', 'prices'], 'pr']);
    expect(complete('CALL get_price { symbol: [pr', source)).toEqual([['price', 'prices'], 'pr']);
  });

  it('completes keywords, literals, built-ins and variables elsewhere', () => {
    expect(complete('L', source)).toEqual([['LEN', 'LET', 'LOWER'], 'L']);
    expect(complete('LET x = tr', source)).toEqual([['true'], 'tr']);
    expect(complete('IF pri', source)).toEqual([['price', 'prices'], 'pri']);
    const all = complete('', source)[0];
    for (const name of [...BUILTIN_NAMES, 'CALL', 'FOR', 'null', 'order']) expect(all).toContain(name);
  });

  it('completes the keys of an object variable after a dot', () => {
    expect(complete('PRINT(order.', source)).toEqual([['order.id', 'order.items'], 'order.']);
    expect(complete('order.items.f', source)).toEqual([['order.items.first'], 'order.items.f']);
    expect(complete('price.', source)).toEqual([[], 'price.']);
  });

  it('offers nothing inside strings and comments or right after a number', () => {
    expect(complete('PRINT("pr', source)).toEqual([[], 'pr']);
    expect(complete('x // pr', source)).toEqual([[], 'pr']);
    expect(complete('LET x = 1.', source)).toEqual([[], '']);
  });
});
