// Unit tests for src/syntax/parse.ts (the syntax layer's entry point): the AST of every statement
// and expression with its positions and `hasCall`, precedence and associativity. Syntax errors and
// deep nesting: parse-errors.test.ts.
import { describe, expect, it } from 'vitest';
import type * as A from '../../../src/syntax/ast.js';
import { childrenOf } from '../../../src/syntax/ast.js';
import { parse } from '../../../src/syntax/parse.js';
import { checkHasCall, expression, sexpr, shape, statement } from '../../support/parse-shapes.js';

describe('parse: statements', () => {
  it('parses LET at the LET keyword', () => {
    expect(parse('  LET total = 42')).toEqual({
      type: 'Program',
      line: 1,
      column: 1,
      hasCall: false,
      body: [
        {
          type: 'Let',
          name: 'total',
          value: { type: 'Literal', value: 42, line: 1, column: 15, hasCall: false },
          line: 1,
          column: 3,
          hasCall: false,
        },
      ],
    });
  });

  it('parses IF ... THEN ... END with alternate null', () => {
    expect(statement('IF ok THEN\n  PRINT(1)\nEND')).toEqual({
      type: 'If',
      condition: { type: 'Variable', name: 'ok', line: 1, column: 4, hasCall: false },
      consequent: [
        {
          type: 'ExpressionStatement',
          expression: {
            type: 'FunctionCall',
            name: 'PRINT',
            arguments: [{ type: 'Literal', value: 1, line: 2, column: 9, hasCall: false }],
            line: 2,
            column: 3,
            hasCall: false,
          },
          line: 2,
          column: 3,
          hasCall: false,
        },
      ],
      alternate: null,
      line: 1,
      column: 1,
      hasCall: false,
    });
  });

  it('parses IF with ELSE, and an empty ELSE as an empty list', () => {
    const withElse = statement('IF a THEN LET x = 1 ELSE LET x = 2 LET y = 3 END') as A.IfStatement;
    expect(withElse.consequent.map((s) => (s as A.LetStatement).name)).toEqual(['x']);
    expect(withElse.alternate!.map((s) => [(s as A.LetStatement).name, s.column])).toEqual([['x', 26], ['y', 36]]);
    const empty = statement('IF a THEN ELSE END') as A.IfStatement;
    expect(empty.consequent).toEqual([]);
    expect(empty.alternate).toEqual([]);
  });

  it('parses ELSE IF as an IF nested in ELSE, each with its own END', () => {
    const node = statement('IF a THEN PRINT(1) ELSE IF b THEN PRINT(2) END END') as A.IfStatement;
    expect(node.alternate).toHaveLength(1);
    expect(node.alternate![0]).toMatchObject({ type: 'If', line: 1, column: 25, condition: { type: 'Variable', name: 'b' } });
  });

  it('parses FOR at the FOR keyword', () => {
    expect(statement('FOR item IN items DO\nEND')).toEqual({
      type: 'For',
      variable: 'item',
      iterable: { type: 'Variable', name: 'items', line: 1, column: 13, hasCall: false },
      body: [],
      line: 1,
      column: 1,
      hasCall: false,
    });
  });

  it('parses an expression statement at its expression', () => {
    const node = statement('   x.y');
    expect(node).toMatchObject({ type: 'ExpressionStatement', line: 1, column: 6, expression: { type: 'Member', line: 1, column: 6 } });
  });

  it('parses several statements on one line and on several', () => {
    const program = parse('LET a = 1 LET b = 2\nPRINT(a)');
    expect(program.body.map((s) => [s.type, s.line, s.column])).toEqual([['Let', 1, 1], ['Let', 1, 11], ['ExpressionStatement', 2, 1]]);
  });

  it('parses an empty script and a comment-only script to an empty program', () => {
    expect(parse('')).toEqual({ type: 'Program', body: [], line: 1, column: 1, hasCall: false });
    expect(parse('// nothing\n').body).toEqual([]);
  });
});

describe('parse: expressions and their positions', () => {
  it('parses literals at their token', () => {
    const list = expression('[0, 3.5, "a\\nb", true, false, null, 2.5E-3]') as A.ListExpression;
    expect(list).toMatchObject({ type: 'List', line: 1, column: 1, hasCall: false });
    expect(list.elements.map((e) => [(e as A.Literal).value, e.column])).toEqual([
      [0, 2],
      [3.5, 5],
      ['a\nb', 10],
      [true, 18],
      [false, 24],
      [null, 31],
      [0.0025, 37],
    ]);
  });

  it('parses a variable at its name', () => {
    expect(expression('\n\n   price')).toEqual({ type: 'Variable', name: 'price', line: 3, column: 4, hasCall: false });
  });

  it('parses a binary operation at its operator', () => {
    expect(expression('a   <=  b')).toEqual({
      type: 'Binary',
      operator: '<=',
      left: { type: 'Variable', name: 'a', line: 1, column: 1, hasCall: false },
      right: { type: 'Variable', name: 'b', line: 1, column: 9, hasCall: false },
      line: 1,
      column: 5,
      hasCall: false,
    });
  });

  it('parses every binary operator', () => {
    for (const op of ['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=']) {
      expect(expression(`a ${op} b`)).toMatchObject({ type: 'Binary', operator: op, column: 3 });
    }
  });

  it('parses AND / OR as Logical nodes at the keyword', () => {
    expect(expression('a AND b')).toMatchObject({ type: 'Logical', operator: 'AND', line: 1, column: 3 });
    expect(expression('a\nOR b')).toMatchObject({ type: 'Logical', operator: 'OR', line: 2, column: 1 });
  });

  it('parses prefix operators at the operator', () => {
    expect(expression('NOT done')).toEqual({
      type: 'Unary',
      operator: 'NOT',
      operand: { type: 'Variable', name: 'done', line: 1, column: 5, hasCall: false },
      line: 1,
      column: 1,
      hasCall: false,
    });
    expect(expression('  -x')).toMatchObject({ type: 'Unary', operator: '-', column: 3 });
    expect(expression('+x')).toMatchObject({ type: 'Unary', operator: '+', column: 1 });
  });

  it('parses member access at the property name and indexing at the bracket', () => {
    expect(expression('order.items [ 0 ]')).toEqual({
      type: 'Index',
      object: {
        type: 'Member',
        object: { type: 'Variable', name: 'order', line: 1, column: 1, hasCall: false },
        property: 'items',
        line: 1,
        column: 7,
        hasCall: false,
      },
      index: { type: 'Literal', value: 0, line: 1, column: 15, hasCall: false },
      line: 1,
      column: 13,
      hasCall: false,
    });
  });

  it('parses a member access split over lines at the name', () => {
    expect(expression('order\n  .total')).toMatchObject({ type: 'Member', property: 'total', line: 2, column: 4 });
  });

  it('parses a function call at its name, with zero or more arguments', () => {
    expect(expression('NOW()')).toEqual({ type: 'FunctionCall', name: 'NOW', arguments: [], line: 1, column: 1, hasCall: false });
    const call = expression('  MAX(1, x)') as A.FunctionCall;
    expect(call).toMatchObject({ type: 'FunctionCall', name: 'MAX', line: 1, column: 3 });
    expect(call.arguments.map(sexpr)).toEqual(['1', 'x']);
  });

  it('parses list literals with a trailing comma', () => {
    expect(shape('[1, 2, 3,]')).toBe('[1 2 3]');
    expect(shape('[]')).toBe('[]');
    expect(shape('[[1], [[]]]')).toBe('[[1] [[]]]');
  });

  it('parses a list comprehension at its `[`, with and without IF, nested, and across lines', () => {
    const node = expression('[p.name FOR p IN products IF p.price > 100]') as A.ComprehensionExpression;
    expect(node).toMatchObject({ type: 'Comprehension', variable: 'p', line: 1, column: 1, hasCall: false });
    expect([node.element.column, node.iterable.column, node.condition!.column]).toEqual([4, 18, 38]);
    expect(childrenOf(node)).toEqual([node.element, node.iterable, node.condition]);
    expect(shape('[x * 2 FOR x IN xs]')).toBe('[(* x 2) FOR x IN xs]');
    expect(childrenOf(expression('[x FOR x IN xs]'))).toHaveLength(2);
    expect(shape('[[i * j FOR j IN xs] FOR i IN RANGE(3) IF i != 1]')).toBe('[[(* i j) FOR j IN xs] FOR i IN RANGE(3) IF (!= i 1)]');
    expect(shape('[x FOR x IN [a FOR a IN b]]')).toBe('[x FOR x IN [a FOR a IN b]]');
    expect(shape('[\n  x\n  FOR x\n  IN xs\n  IF x\n]')).toBe('[x FOR x IN xs IF x]');
    // A comprehension may stand wherever an expression may: indexed, as an argument, in an operation.
    expect(shape('LEN([x FOR x IN xs])[0] + 1')).toBe('(+ ([] LEN([x FOR x IN xs]) 0) 1)');
  });

  it('parses a comprehension inside blocks: its FOR and IF need no END', () => {
    const program = parse('FOR i IN xs DO\n  IF [x FOR x IN i IF x > 0] == [] THEN\n    PRINT([y FOR y IN i])\n  END\nEND');
    expect(program.body).toHaveLength(1);
    const loop = program.body[0] as A.ForStatement;
    expect((loop.body[0] as A.IfStatement).condition.type).toBe('Binary');
  });

  it('parses object literals with identifier and string keys and a trailing comma', () => {
    const object = expression('{ name: "x", "first-name": 1, "": 2, }') as A.ObjectExpression;
    expect(object).toMatchObject({ type: 'Object', line: 1, column: 1, hasCall: false });
    expect(object.properties.map((p) => [p.type, p.key, p.line, p.column, sexpr(p.value)])).toEqual([
      ['Property', 'name', 1, 3, '"x"'],
      ['Property', 'first-name', 1, 14, '1'],
      ['Property', '', 1, 31, '2'],
    ]);
    expect(shape('{}')).toBe('{}');
  });

  it('keeps a raw tab or other control character inside a string (it is neither an escape nor a line break)', () => {
    // LANGUAGE.md §1 makes only unknown escapes and raw line breaks syntax errors.
    expect(expression('"a\tb"')).toEqual({ type: 'Literal', value: 'a\tb', line: 1, column: 1, hasCall: false });
    expect(expression('"\u0001"')).toMatchObject({ type: 'Literal', value: '\u0001' });
    expect((expression('{ "k\tey": 1 }') as A.ObjectExpression).properties[0]!.key).toBe('k\tey');
  });

  it('decodes escapes in string keys', () => {
    const object = expression('{ "a\\"b\\u0041": 1 }') as A.ObjectExpression;
    expect(object.properties[0]!.key).toBe('a"bA');
  });

  it('parses CALL at the keyword, with a dotted tool name and an object of arguments', () => {
    expect(expression('CALL math.add { a: 1 }')).toEqual({
      type: 'Call',
      tool: 'math.add',
      arguments: {
        type: 'Object',
        properties: [{ type: 'Property', key: 'a', value: { type: 'Literal', value: 1, line: 1, column: 20, hasCall: false }, line: 1, column: 17, hasCall: false }],
        line: 1,
        column: 15,
        hasCall: false,
      },
      line: 1,
      column: 1,
      hasCall: true,
    });
    expect(expression('CALL a.b.c {}')).toMatchObject({ type: 'Call', tool: 'a.b.c' });
    expect(expression('CALL get_price { "sku id": 1, }')).toMatchObject({ tool: 'get_price', arguments: { properties: [{ key: 'sku id' }] } });
  });

  it('parses CALC at the keyword', () => {
    const node = statement('LET r = CALC { formula: "a + 1", vars: { a: 2 } }') as A.LetStatement;
    expect(node.value).toMatchObject({ type: 'Calc', line: 1, column: 9, hasCall: false, arguments: { type: 'Object', column: 14 } });
    expect(sexpr(node.value)).toBe('CALC {"formula": "a + 1", "vars": {"a": 2}}');
  });

  it('parses postfix operators after any primary', () => {
    expect(shape('[1, 2][0]')).toBe('([] [1 2] 0)');
    expect(shape('{a: 1}.a')).toBe('(. {"a": 1} a)');
    expect(shape('(CALL t {}).x[1].y')).toBe('(. ([] (. CALL t {} x) 1) y)');
    expect(shape('KEYS(o)[0]')).toBe('([] KEYS(o) 0)');
  });
});

describe('parse: precedence and associativity', () => {
  it.each([
    ['1 - 2 - 3', '(- (- 1 2) 3)'],
    ['8 / 4 / 2', '(/ (/ 8 4) 2)'],
    ['2 * 3 + 4', '(+ (* 2 3) 4)'],
    ['2 + 3 * 4', '(+ 2 (* 3 4))'],
    ['a % b * c', '(* (% a b) c)'],
    ['NOT a == b', '(NOT (== a b))'],
    ['NOT a AND b', '(AND (NOT a) b)'],
    ['NOT NOT a', '(NOT (NOT a))'],
    ['-x.y', '(- (. x y))'],
    ['-x[0]', '(- ([] x 0))'],
    ['- - 1', '(- (- 1))'],
    ['-2 * 3', '(* (- 2) 3)'],
    ['a - -b', '(- a (- b))'],
    ['a OR b AND c', '(OR a (AND b c))'],
    ['a AND b OR c', '(OR (AND a b) c)'],
    ['a OR b OR c', '(OR (OR a b) c)'],
    ['a == b AND c != d', '(AND (== a b) (!= c d))'],
    ['a < b == c > d', '(== (< a b) (> c d))'],
    ['a + 1 < b * 2', '(< (+ a 1) (* b 2))'],
    ['a == b == c', '(== (== a b) c)'],
    ['(1 - 2) - 3', '(- (- 1 2) 3)'],
    ['1 - (2 - 3)', '(- 1 (- 2 3))'],
    ['NOT (a OR b)', '(NOT (OR a b))'],
    ['NOT a < 1 + 2', '(NOT (< a (+ 1 2)))'],
    ['x == NOT y', '(== x (NOT y))'],
  ])('%s → %s', (source, expected) => {
    expect(shape(source)).toBe(expected);
  });

  it('keeps the positions of each operator in a chain', () => {
    const node = expression('1 - 2 - 3') as A.BinaryExpression;
    expect([node.line, node.column]).toEqual([1, 7]);
    expect([node.left.line, node.left.column]).toEqual([1, 3]);
  });
});

describe('parse: hasCall', () => {
  it('is true exactly on the nodes whose subtree contains a CALL', () => {
    const program = parse(`
      LET a = [1, { k: CALL t {} }]
      LET b = 1 + 2
      IF x THEN LET y = 1 ELSE LET y = CALL u { n: 1 } END
      FOR i IN list DO PRINT(i) END
      FOR i IN CALL items {} DO PRINT(i) END
      PRINT(-(CALL v {}).w[CALL i {}])
      LET c = CALC { formula: "a", vars: { a: CALL n {} } }
      LET d = NOT (CALL f {} == 1 AND true)
    `);
    expect(checkHasCall(program)).toBeGreaterThan(40);
    expect(program.hasCall).toBe(true);
    expect(program.body.map((s) => s.hasCall)).toEqual([true, false, true, false, true, true, true, true]);
  });

  it('is false on every node of a script without CALL', () => {
    const program = parse('LET a = [1, {k: -x.y[0]}] IF a == 1 THEN PRINT(CALC { formula: "1" }) END FOR i IN a DO END');
    checkHasCall(program);
    expect(program.hasCall).toBe(false);
  });

  it('marks the path to a nested CALL and nothing beside it', () => {
    const node = statement('LET a = [1, { k: CALL t {} }]') as A.LetStatement;
    const list = node.value as A.ListExpression;
    const object = list.elements[1] as A.ObjectExpression;
    expect([node.hasCall, list.hasCall, list.elements[0]!.hasCall, object.hasCall, object.properties[0]!.hasCall]).toEqual([true, true, false, true, true]);
    const call = object.properties[0]!.value as A.CallExpression;
    expect([call.hasCall, call.arguments.hasCall]).toEqual([true, false]);
  });

  it('marks an IF by its branches, and only the branch holding the CALL', () => {
    const node = statement('IF x THEN LET y = 1 ELSE LET y = CALL t {} END') as A.IfStatement;
    expect([node.hasCall, node.condition.hasCall, node.consequent[0]!.hasCall, node.alternate![0]!.hasCall]).toEqual([true, false, false, true]);
  });

  it('marks a comprehension by its element, list and condition', () => {
    const node = expression('[CALL price { s: s } FOR s IN xs]') as A.ComprehensionExpression;
    expect([node.hasCall, node.element.hasCall, node.iterable.hasCall]).toEqual([true, true, false]);
    expect(expression('[s FOR s IN CALL list {}]').hasCall).toBe(true);
    expect(expression('[s FOR s IN xs IF CALL ok { s: s }]').hasCall).toBe(true);
    expect(expression('[s FOR s IN xs IF s > 1]').hasCall).toBe(false);
    checkHasCall(parse('LET a = [[CALL t {} FOR j IN i] FOR i IN xs IF i != 0]'));
  });

  it('marks an index whose index contains a CALL, not its object', () => {
    const node = expression('a[CALL t {}]') as A.IndexExpression;
    expect([node.hasCall, node.object.hasCall, node.index.hasCall]).toEqual([true, false, true]);
  });
});

