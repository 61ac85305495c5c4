// Unit tests for src/syntax/parse.ts (the syntax layer's entry point): the AST of every statement
// and expression with its positions and `hasCall`, precedence, syntax errors (all of them, in
// order, with positions and hints), and deep but legal nesting parsed on the worker thread.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as A from '../../../src/syntax/ast.js';
import { childrenOf } from '../../../src/syntax/ast.js';
import { isNuwaError, NuwaError } from '../../../src/errors.js';
import { parse, parseProblems, syntaxError } from '../../../src/syntax/parse.js';

function syntaxFailure(source: unknown, options?: { fileName?: string }): NuwaError {
  try {
    parse(source as string, options);
  } catch (error) {
    if (isNuwaError(error)) return error;
    throw new Error(`expected a NuwaError, got ${String(error)}`);
  }
  throw new Error(`expected a SyntaxError for ${JSON.stringify(source)}`);
}

/** The only statement of `source`. */
function statement(source: string): A.Statement {
  const program = parse(source);
  expect(program.body).toHaveLength(1);
  return program.body[0]!;
}

/** The expression of a one-expression script. */
function expression(source: string): A.Expression {
  const node = statement(source);
  if (node.type !== 'ExpressionStatement') throw new Error(`expected an expression statement, got ${node.type}`);
  return node.expression;
}

/** A compact prefix form of an expression, to check tree shapes. */
function sexpr(node: A.Expression): string {
  switch (node.type) {
    case 'Literal':
      return JSON.stringify(node.value);
    case 'Variable':
      return node.name;
    case 'Binary':
    case 'Logical':
      return `(${node.operator} ${sexpr(node.left)} ${sexpr(node.right)})`;
    case 'Unary':
      return `(${node.operator} ${sexpr(node.operand)})`;
    case 'Member':
      return `(. ${sexpr(node.object)} ${node.property})`;
    case 'Index':
      return `([] ${sexpr(node.object)} ${sexpr(node.index)})`;
    case 'List':
      return `[${node.elements.map(sexpr).join(' ')}]`;
    case 'Comprehension':
      return `[${sexpr(node.element)} FOR ${node.variable} IN ${sexpr(node.iterable)}${node.condition ? ` IF ${sexpr(node.condition)}` : ''}]`;
    case 'Object':
      return `{${node.properties.map((p) => `${JSON.stringify(p.key)}: ${sexpr(p.value)}`).join(', ')}}`;
    case 'FunctionCall':
      return `${node.name}(${node.arguments.map(sexpr).join(' ')})`;
    case 'Call':
      return `CALL ${node.tool} ${sexpr(node.arguments)}`;
    case 'Calc':
      return `CALC ${sexpr(node.arguments)}`;
  }
}

const shape = (source: string) => sexpr(expression(source));


function containsCall(node: A.Node): boolean {
  return node.type === 'Call' || childrenOf(node).some(containsCall);
}

/** Checks `hasCall` on every node of the tree against a recomputation; returns the node count. */
function checkHasCall(node: A.Node): number {
  expect(node.hasCall, `hasCall of ${node.type} at ${node.line}:${node.column}`).toBe(containsCall(node));
  return 1 + childrenOf(node).reduce((n, child) => n + checkHasCall(child), 0);
}

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

describe('parse: syntax errors', () => {
  it('refuses duplicate keys at the second key', () => {
    const error = syntaxFailure('LET a = {x: 1, "x": 2}');
    expect(error.kind).toBe('SyntaxError');
    expect([error.line, error.column]).toEqual([1, 16]);
    expect(error.message).toMatch(/^duplicate key "x" in object literal/);
  });

  it('refuses duplicate keys in CALL arguments', () => {
    const error = syntaxFailure('CALL t {\n  a: 1,\n  a: 2\n}');
    expect([error.line, error.column]).toEqual([3, 3]);
    expect(error.message).toMatch(/duplicate key "a"/);
  });

  it('accepts the same key in two different objects', () => {
    expect(() => parse('LET a = [{x: 1}, {x: 2, y: {x: 3}}]')).not.toThrow();
  });

  it('refuses `=` in an expression and says to use ==', () => {
    const error = syntaxFailure('IF x = 1 THEN END');
    expect(error.kind).toBe('SyntaxError');
    expect([error.line, error.column]).toEqual([1, 6]);
    expect(error.message).toMatch(/`=` is not an operator: use `==` to compare/);
    expect(error.errors).toHaveLength(1);
  });

  it('refuses `=` used as an assignment without LET, and says to write LET', () => {
    const error = syntaxFailure('x = 1');
    expect(error.errors).toEqual([{ line: 1, column: 1, message: 'to set a variable, write LET x = ...' }]);
  });

  it('reports every syntax error of a script in source order, with positions', () => {
    const error = syntaxFailure('LET = 1\nLET b 2\nFOR IN');
    expect(error.kind).toBe('SyntaxError');
    expect(error.errors!.map((e) => [e.line, e.column])).toEqual([[1, 5], [2, 7], [3, 5], [3, 7]]);
    expect(error.errors![0]!.message).toBe('expected a variable name after LET but found `=`');
    expect(error.errors![1]!.message).toBe('expected `=` but found `2`');
    expect(error.errors![2]!.message).toBe('expected a loop variable name after FOR but found `IN`');
    expect(error.errors![3]!.message).toBe('the FOR opened on line 3 has no END');
    expect(error.message).toBe('expected a variable name after LET but found `=` (and 3 more syntax errors)');
    expect([error.line, error.column]).toEqual([1, 5]);
  });

  it('merges lexer and parser problems in source order', () => {
    const error = syntaxFailure('LET a = "x\\qy"\nLET b = \'z\'\nLET = 3');
    expect(error.errors!.map((e) => [e.line, e.column])).toEqual([[1, 11], [2, 9], [3, 5]]);
    expect(error.errors![0]!.message).toMatch(/^invalid escape/);
    expect(error.errors![1]!.message).toMatch(/double quotes/);
  });

  it('reports a stray END and keeps parsing: a later error still shows', () => {
    const error = syntaxFailure('PRINT(1)\nEND\nLET = 2');
    expect(error.errors).toHaveLength(2);
    expect(error.errors![0]).toEqual({ line: 2, column: 1, message: 'unexpected `END`: no IF or FOR is open here; remove it' });
    expect(error.errors![1]).toMatchObject({ line: 3, column: 5 });
    expect(error.message).toMatch(/\(and 1 more syntax error\)$/);
  });

  it('reports a stray `)` and keeps parsing', () => {
    const error = syntaxFailure('LET a = 1 ) LET b = ');
    expect(error.errors!.map((e) => [e.line, e.column])).toEqual([[1, 11], [1, 20]]);
    expect(error.errors![0]!.message).toBe('unexpected `)`: no `(` is open here');
  });

  it('hints that keywords are uppercase for lowercase `let`', () => {
    const error = syntaxFailure('let x = 1');
    expect(error.kind).toBe('SyntaxError');
    expect(error.message).toMatch(/uppercase/);
    expect(error.message).toMatch(/`LET`/);
  });

  it('hints that keywords are uppercase for lowercase `if` and `for`', () => {
    expect(syntaxFailure('if x THEN END').message).toMatch(/keywords are uppercase: write `IF`/);
    expect(syntaxFailure('for x IN y DO END').message).toMatch(/keywords are uppercase: write `FOR`/);
  });

  it('reports a comprehension written with two FORs or two IFs once, and the rest of the script', () => {
    const error = syntaxFailure('LET a = [x FOR x IN xs FOR y IN ys]\nLET b = [x FOR x IN xs IF x > 1 IF x < 5]\nLET c = ');
    expect(error.errors!.map((e) => [e.line, e.column, e.message.slice(0, 40)])).toEqual([
      [1, 24, 'a list comprehension has one FOR: nest t'],
      [2, 33, 'a list comprehension has one IF: join th'],
      [3, 8, 'expected an expression (a value, a name,'],
    ]);
  });

  it('hints that keywords are uppercase in a comprehension written in lowercase, once per word', () => {
    const error = syntaxFailure('LET a = [x for x in xs if x > 1]');
    expect(error.errors!.map((e) => [e.column, e.message])).toEqual([
      [12, 'keywords are uppercase: write `FOR`, as in [x FOR x IN xs IF x > 1]'],
      [18, 'keywords are uppercase: write `IN`'],
      [24, 'keywords are uppercase: write `IF`'],
    ]);
  });

  it('says what a comprehension expects after FOR', () => {
    const first = (source: string) => syntaxFailure(source).errors![0]!.message;
    expect(first('LET a = [x FOR 1 IN xs]')).toBe('expected a variable name after FOR ([expression FOR x IN list]) but found `1`');
    expect(first('LET a = [x FOR x OF xs]')).toBe('expected IN after the variable ([expression FOR x IN list]) but found `OF`');
    expect(first('LET a = [FOR x IN xs]')).toBe('a list comprehension starts with the value to make of each item: [x * 2 FOR x IN xs]');
  });

  it('leaves the FOR after a forgotten `]` a FOR loop: only the bracket is reported', () => {
    const error = syntaxFailure('LET a = [1, 2\nFOR i IN a DO\n  PRINT(i)\nEND');
    expect(error.errors!.map((e) => [e.line, e.column, e.message])).toEqual([[1, 14, '`[` at column 9 is not closed: add `]` at the end of the line: write LET a = [1, 2]']]);
  });

  it('hints at ELSE IF for ELSEIF', () => {
    expect(syntaxFailure('IF a THEN ELSEIF b THEN END').message).toMatch(/there is no ELSEIF/);
  });

  it('points a missing END at the end of the script just after the last token', () => {
    const error = syntaxFailure('IF true THEN\n  PRINT(1)\n\n');
    expect(error.errors).toEqual([{ line: 2, column: 11, message: 'the IF opened on line 1 has no END' }]);
  });

  it('points a missing closing bracket after the last token', () => {
    expect(syntaxFailure('LET x = [1, 2').errors).toEqual([{ line: 1, column: 14, message: 'expected `]` but found the end of the script' }]);
    expect(syntaxFailure('(1').errors).toEqual([{ line: 1, column: 3, message: 'expected `)` but found the end of the script' }]);
  });

  it('reports a dot without a name', () => {
    expect(syntaxFailure('x.').errors).toEqual([{ line: 1, column: 3, message: 'expected a name but found the end of the script' }]);
  });

  it('refuses keywords as names', () => {
    expect(syntaxFailure('LET END = 1').errors![0]).toMatchObject({ line: 1, column: 5, message: 'expected a variable name after LET but found `END`' });
  });

  it('refuses a non-string script with a SyntaxError instead of crashing', () => {
    for (const [input, name] of [[42, 'number'], [null, 'null'], [undefined, 'undefined'], [{}, 'object']] as const) {
      const error = syntaxFailure(input);
      expect(error).toBeInstanceOf(NuwaError);
      expect(error.kind).toBe('SyntaxError');
      expect(error.message).toBe(`a script must be text, not ${name}`);
      expect([error.line, error.column]).toEqual([1, 1]);
    }
  });

  it('puts the fileName option on the error', () => {
    const error = syntaxFailure('LET', { fileName: 'plan.nuwa' });
    expect(error.fileName).toBe('plan.nuwa');
    expect(error.toJSON()).toMatchObject({ kind: 'SyntaxError', fileName: 'plan.nuwa', line: 1, column: 4 });
  });

  it('keeps the error list bounded for hopeless text', () => {
    const error = syntaxFailure('PRINT(1) )\n'.repeat(80));
    expect(error.errors!.length).toBeLessThanOrEqual(50);
    expect(error.errors!.length).toBeGreaterThan(10);
    expect(error.errors!.slice(0, 3)).toEqual([1, 2, 3].map((line) => ({ line, column: 10, message: 'unexpected `)`: no `(` is open here' })));
  });
});

describe('parse: deep nesting', () => {
  it('parses 999 nested parentheses to the inner expression (parentheses leave no node)', () => {
    const node = statement(`LET x = ${'('.repeat(999)}1 + 2${')'.repeat(999)}`) as A.LetStatement;
    expect(node.value).toEqual({
      type: 'Binary',
      operator: '+',
      left: { type: 'Literal', value: 1, line: 1, column: 9 + 999, hasCall: false },
      right: { type: 'Literal', value: 2, line: 1, column: 9 + 999 + 4, hasCall: false },
      line: 1,
      column: 9 + 999 + 2,
      hasCall: false,
    });
  });

  it('parses exactly 1,000 nested parentheses', () => {
    expect(expression(`${'('.repeat(1000)}x${')'.repeat(1000)}`)).toEqual({ type: 'Variable', name: 'x', line: 1, column: 1001, hasCall: false });
  });

  it('parses 999 nested lists to 999 List nodes', () => {
    const node = statement(`LET x = ${'['.repeat(999)}7${']'.repeat(999)}`) as A.LetStatement;
    let current: A.Expression = node.value;
    let depth = 0;
    while (current.type === 'List') {
      expect(current.column).toBe(9 + depth);
      expect(current.elements).toHaveLength(1);
      current = current.elements[0]!;
      depth++;
    }
    expect(depth).toBe(999);
    expect(current).toEqual({ type: 'Literal', value: 7, line: 1, column: 9 + 999, hasCall: false });
  });

  it('parses 500 nested IF blocks', () => {
    const program = parse(`${'IF true THEN\n'.repeat(500)}CALL t {}\n${'END\n'.repeat(500)}`);
    let node: A.Statement = program.body[0]!;
    let depth = 0;
    while (node.type === 'If') {
      expect([node.line, node.column, node.hasCall, node.alternate]).toEqual([depth + 1, 1, true, null]);
      expect(node.consequent).toHaveLength(1);
      node = node.consequent[0]!;
      depth++;
    }
    expect(depth).toBe(500);
    expect(node).toMatchObject({ type: 'ExpressionStatement', line: 501, column: 1, hasCall: true, expression: { type: 'Call', tool: 't' } });
    expect(program.hasCall).toBe(true);
  });

  it('parses 1,000 prefix operators', () => {
    let node = expression(`${'NOT '.repeat(1000)}true`);
    let count = 0;
    while (node.type === 'Unary') {
      expect([node.operator, node.column]).toEqual(['NOT', 1 + 4 * count]);
      node = node.operand;
      count++;
    }
    expect(count).toBe(1000);
    expect(node).toMatchObject({ type: 'Literal', value: true, column: 4001 });
  });

  it('reports syntax errors found in deeply nested text, with positions', () => {
    const error = syntaxFailure(`LET x = ${'('.repeat(100)}1 +${')'.repeat(100)}\nLET = 1`, { fileName: 'deep.nuwa' });
    expect(error.kind).toBe('SyntaxError');
    expect(error.fileName).toBe('deep.nuwa');
    expect(error.errors![0]).toMatchObject({ line: 1, column: 9 + 100 + 3, message: expect.stringMatching(/but found `\)`$/) });
    expect(error.errors!.at(-1)).toMatchObject({ line: 2, column: 5 });
  });

  it('refuses 1,001 nested parentheses with a SyntaxError at the offending token', () => {
    const error = syntaxFailure(`LET x = ${'('.repeat(1001)}1${')'.repeat(1001)}`);
    expect(error.kind).toBe('SyntaxError');
    expect(error.errors).toHaveLength(1);
    expect([error.line, error.column]).toEqual([1, 9 + 1000]);
    expect(error.message).toMatch(/^nesting deeper than 1000 levels/);
  });

  it('refuses 1,001 nested IF blocks and 1,001 prefix operators', () => {
    const blocks = syntaxFailure(`${'IF true THEN '.repeat(1001)}${'END '.repeat(1001)}`);
    expect([blocks.kind, blocks.line, blocks.column]).toEqual(['SyntaxError', 1, 1 + 13 * 1000]);
    const prefixes = syntaxFailure(`LET x = ${'-'.repeat(1001)}1`);
    expect([prefixes.kind, prefixes.line, prefixes.column]).toEqual(['SyntaxError', 1, 9 + 1000]);
  });

  it('parses a chain of 5,000 `+` terms, left-associative', () => {
    const source = `LET x = ${Array.from({ length: 5000 }, (_, i) => String(i)).join(' + ')}`;
    const node = statement(source) as A.LetStatement;
    let current: A.Expression = node.value;
    let operators = 0;
    while (current.type === 'Binary') {
      expect(current.operator).toBe('+');
      expect(current.right).toMatchObject({ type: 'Literal', value: 4999 - operators });
      current = current.left;
      operators++;
    }
    expect(operators).toBe(4999);
    expect(current).toMatchObject({ type: 'Literal', value: 0, column: 9 });
  });
});

describe('parse: text full of other languages\' habits', () => {
  it('always ends in a Program or positioned, worded problems, never a crash', () => {
    const word = fc.constantFrom(
      'IF', 'THEN', 'ELSE', 'END', 'FOR', 'IN', 'DO', 'LET', 'x', 'y', '=', '==', '1', '.5', '"s"', "'q'", '(', ')', '[', ']', '{', '}', ':', ',',
      '+', '-', 'NOT', '!', '&&', '||', 'CALL', 't', 'CALC', 'ELSEIF', 'elif', 'WHILE', 'while', 'RETURN', 'BREAK', 'if', 'then', 'else', 'end',
      'for', 'in', 'do', 'let', 'and', 'or', 'not', 'call', '.', '\n', '\n  ', 'print', 'PRINT', 'True', 'None', '+=', '<>', '===', '++',
      '#c\n', '/* c */', '```', '`t`', 'f"x"', 'x.y', 'LEN(', 'get_weather', 'END IF', 'ENDIF', 'x = 2',
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 80 }), (words) => {
        const outcome = parseProblems(words.join(' '));
        if ('program' in outcome) return;
        expect(outcome.problems.length).toBeGreaterThan(0);
        for (const problem of outcome.problems) {
          expect(problem.line).toBeGreaterThanOrEqual(1);
          expect(problem.column).toBeGreaterThanOrEqual(1);
          expect(problem.message).not.toMatch(/undefined|\[object|NaN|function \w*\(/);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('parseProblems and syntaxError', () => {
  it('returns problems instead of throwing', () => {
    expect(parseProblems('LET')).toEqual({ problems: [{ line: 1, column: 4, message: 'expected a variable name after LET but found the end of the script' }], problemCount: 1 });
    expect(parseProblems('LET a = 1')).toMatchObject({ program: { type: 'Program', body: [{ type: 'Let', name: 'a' }] } });
  });

  it('builds one SyntaxError from a list of problems', () => {
    const problems = [
      { line: 2, column: 3, message: 'first' },
      { line: 4, column: 1, message: 'second' },
      { line: 5, column: 1, message: 'third' },
    ];
    const error = syntaxError(problems, 'f.nuwa');
    expect(error.kind).toBe('SyntaxError');
    expect(error.message).toBe('first (and 2 more syntax errors)');
    expect([error.line, error.column, error.fileName]).toEqual([2, 3, 'f.nuwa']);
    expect(error.errors).toBe(problems);
    expect(syntaxError([problems[0]!]).message).toBe('first');
    expect(syntaxError(problems.slice(0, 2)).message).toBe('first (and 1 more syntax error)');
  });
});
