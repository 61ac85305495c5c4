// The abstract syntax tree. Every node carries the 1-based line and column of the token that defines
// it (the keyword of a statement, the operator of an operation, the name of a variable, the `[` of an
// index...), which is where an error raised by that node points.
//
// `hasCall` is decided once, while parsing: true when the node's subtree contains a CALL. The
// evaluator runs every subtree without one synchronously and only awaits where a tool can run.

export interface NodeBase {
  line: number;
  column: number;
  hasCall: boolean;
}

export interface Program extends NodeBase {
  type: 'Program';
  body: Statement[];
}

export type Statement = LetStatement | IfStatement | ForStatement | ExpressionStatement;

export interface LetStatement extends NodeBase {
  type: 'Let';
  name: string;
  value: Expression;
}

export interface IfStatement extends NodeBase {
  type: 'If';
  condition: Expression;
  consequent: Statement[];
  alternate: Statement[] | null;
}

export interface ForStatement extends NodeBase {
  type: 'For';
  variable: string;
  iterable: Expression;
  body: Statement[];
}

export interface ExpressionStatement extends NodeBase {
  type: 'ExpressionStatement';
  expression: Expression;
}

export type Expression =
  | Literal
  | Variable
  | ListExpression
  | ComprehensionExpression
  | ObjectExpression
  | BinaryExpression
  | LogicalExpression
  | UnaryExpression
  | MemberExpression
  | IndexExpression
  | CallExpression
  | CalcExpression
  | FunctionCall;

export interface Literal extends NodeBase {
  type: 'Literal';
  value: number | string | boolean | null;
}

export interface Variable extends NodeBase {
  type: 'Variable';
  name: string;
}

export interface ListExpression extends NodeBase {
  type: 'List';
  elements: Expression[];
}

/**
 * `[element FOR variable IN iterable]` or `[element FOR variable IN iterable IF condition]`, at its
 * `[`. Runs `iterable` once, then, for each item in a scope of its own that binds `variable`,
 * `condition` (when there is one) and `element` (LANGUAGE.md §8).
 */
export interface ComprehensionExpression extends NodeBase {
  type: 'Comprehension';
  element: Expression;
  variable: string;
  iterable: Expression;
  condition: Expression | null;
}

export interface Property extends NodeBase {
  type: 'Property';
  key: string;
  value: Expression;
}

export interface ObjectExpression extends NodeBase {
  type: 'Object';
  properties: Property[];
}

export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%';
export type ComparisonOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';

export interface BinaryExpression extends NodeBase {
  type: 'Binary';
  operator: ArithmeticOperator | ComparisonOperator;
  left: Expression;
  right: Expression;
}

export interface LogicalExpression extends NodeBase {
  type: 'Logical';
  operator: 'AND' | 'OR';
  left: Expression;
  right: Expression;
}

export interface UnaryExpression extends NodeBase {
  type: 'Unary';
  operator: 'NOT' | '-' | '+';
  operand: Expression;
}

export interface MemberExpression extends NodeBase {
  type: 'Member';
  object: Expression;
  property: string;
}

export interface IndexExpression extends NodeBase {
  type: 'Index';
  object: Expression;
  index: Expression;
}

/** `CALL name { ... }`: `tool` is the full (possibly dotted) tool name. */
export interface CallExpression extends NodeBase {
  type: 'Call';
  tool: string;
  arguments: ObjectExpression;
}

/** `CALC { formula: ..., vars: ... }`. */
export interface CalcExpression extends NodeBase {
  type: 'Calc';
  arguments: ObjectExpression;
}

/** `NAME(args)`: a built-in function call. */
export interface FunctionCall extends NodeBase {
  type: 'FunctionCall';
  name: string;
  arguments: Expression[];
}

export type Node = Program | Statement | Expression | Property;

/** The nodes directly inside `node`, in source order. */
export function childrenOf(node: Node): readonly Node[] {
  switch (node.type) {
    case 'Program':
      return node.body;
    case 'Let':
      return [node.value];
    case 'If':
      return node.alternate ? [node.condition, ...node.consequent, ...node.alternate] : [node.condition, ...node.consequent];
    case 'For':
      return [node.iterable, ...node.body];
    case 'ExpressionStatement':
      return [node.expression];
    case 'Binary':
    case 'Logical':
      return [node.left, node.right];
    case 'Unary':
      return [node.operand];
    case 'Member':
      return [node.object];
    case 'Index':
      return [node.object, node.index];
    case 'List':
      return node.elements;
    case 'Comprehension':
      return node.condition ? [node.element, node.iterable, node.condition] : [node.element, node.iterable];
    case 'Object':
      return node.properties;
    case 'Property':
      return [node.value];
    case 'Call':
    case 'Calc':
      return [node.arguments];
    case 'FunctionCall':
      return node.arguments;
    case 'Literal':
    case 'Variable':
      return [];
  }
}
