// The public API of Nuwa (API.md), and nothing else.
export { Interpreter } from './runtime/interpreter.js';
export type { InterpreterOptions, RunOptions, RunResult, ScriptScope } from './runtime/interpreter.js';
export { ToolRegistry, createToolRegistry } from './tools/registry.js';
export type { RegisteredTool, FunctionSchema } from './tools/registry.js';
export { Session } from './tools/session.js';
export { parse } from './syntax/parse.js';
export type { ParseOptions } from './syntax/parse.js';
export { extractScript } from './syntax/extract.js';
export { NuwaError, isNuwaError, ERROR_KINDS } from './errors.js';
export type { ErrorKind, Position, SyntaxProblem } from './errors.js';
export { DEFAULT_LIMITS } from './runtime/limits.js';
export type { Limits } from './runtime/limits.js';
export { BUILTIN_NAMES } from './runtime/builtins.js';
export type { NuwaEvent, EventType, EventListener, RunStats } from './events.js';
export type { JsonValue, JsonObject } from './values/json.js';
export type * from './tools/types.js';
export type * as AST from './syntax/ast.js';
