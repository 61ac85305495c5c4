import { describe, expect, it } from 'vitest';
import { complete, type CompletionSource } from '../../../src/cli/repl-complete.js';
import { BUILTIN_NAMES } from '../../../src/runtime/builtins.js';
import type { JsonValue } from '../../../src/values/json.js';

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

  it('offers the variable of a list comprehension in its condition, and the keys of its items after a dot', () => {
    const products: JsonValue[] = [{ name: 'a', price: 1 }, { name: 'b', stock: 2 }];
    const rows: CompletionSource = { ...source, variables: () => ({ products, price: 1 }) };
    expect(complete('LET cheap = [p.name FOR product IN products IF pro', rows)).toEqual([['product', 'products'], 'pro']);
    expect(complete('LET cheap = [p.name FOR product IN products IF product.', rows)).toEqual([['product.name', 'product.price', 'product.stock'], 'product.']);
    expect(complete('LET cheap = [p.name FOR product IN products IF product.price > 1 AND product.st', rows)).toEqual([['product.stock'], 'product.st']);
    // nested: both variables; the list is read outside the comprehension, where its variable is not bound
    expect(complete('[a FOR inner IN in', rows)[0]).toEqual([]);
    expect(complete('[x FOR outer IN products IF [y FOR inner IN outer IF i', rows)[0]).toEqual(['inner']);
    expect(complete('[x FOR outer IN products IF [y FOR inner IN outer IF ou', rows)[0]).toEqual(['outer']);
    expect(complete('[x FOR outer IN products IF [y FOR inner IN outer IF inner.', rows)[0]).toEqual([]);
    // gone once its brackets close
    expect(complete('LET a = [q FOR q IN products IF true]\nPRINT(q', rows)[0]).toEqual([]);
  });

  it('offers the variable of a FOR loop in its body, until its END', () => {
    const rows: CompletionSource = { ...source, variables: () => ({ orders: [{ id: 1, total: 2 }] }) };
    expect(complete('FOR order IN orders DO\n  PRINT(ord', rows)).toEqual([['order', 'orders'], 'ord']);
    expect(complete('FOR order IN orders DO\n  IF order.', rows)).toEqual([['order.id', 'order.total'], 'order.']);
    expect(complete('FOR order IN orders DO\n  IF true THEN\n  END\n  PRINT(ord', rows)[0]).toEqual(['order', 'orders']);
    expect(complete('FOR order IN orders DO\nEND\nPRINT(ord', rows)[0]).toEqual(['orders']);
    expect(complete('FOR order IN ord', rows)[0]).toEqual(['orders']);
    expect(complete('FOR __proto__ IN orders DO\n  PRINT(__proto__.', rows)[0]).toEqual(['__proto__.id', '__proto__.total']);
  });

  it('offers nothing inside strings and comments or right after a number', () => {
    expect(complete('PRINT("pr', source)).toEqual([[], 'pr']);
    expect(complete('x // pr', source)).toEqual([[], 'pr']);
    expect(complete('LET x = 1.', source)).toEqual([[], '']);
  });
});
