// Unit tests for src/errors.ts: the one error type, its kinds, positions and JSON form.
import { describe, expect, it } from 'vitest';
import { ERROR_KINDS, isNuwaError, NuwaError } from '../../../src/errors.js';

describe('NuwaError', () => {
  it('has every kind of LANGUAGE.md §6', () => {
    expect([...ERROR_KINDS].sort()).toEqual(
      [
        'SyntaxError', 'UndefinedVariableError', 'TypeError', 'DivisionByZeroError', 'MemberAccessError', 'IndexOutOfBoundsError',
        'InvalidConditionError', 'InvalidIterableError', 'UnknownFunctionError', 'FunctionArgumentError', 'CalcError',
        'ToolNotFoundError', 'ToolArgumentError', 'ToolExecutionError', 'ToolResultError', 'ToolDeniedError',
        'LimitExceededError', 'AbortedError', 'ReplayError', 'ConflictError',
      ].sort(),
    );
  });

  it('carries kind, message, position and the other options', () => {
    const cause = new Error('inner');
    const error = new NuwaError('ToolExecutionError', 'it broke', { line: 2, column: 5, fileName: 'a.nuwa', cause, toolName: 't' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('NuwaError');
    expect([error.kind, error.message, error.line, error.column, error.fileName, error.toolName]).toEqual(['ToolExecutionError', 'it broke', 2, 5, 'a.nuwa', 't']);
    expect(error.cause).toBe(cause);
  });

  it('leaves unset options absent', () => {
    const error = new NuwaError('TypeError', 'x');
    expect(error.line).toBeUndefined();
    expect('cause' in error).toBe(false);
    expect(error.toJSON()).toEqual({ kind: 'TypeError', message: 'x' });
  });

  it('attaches a position only when it has none (the innermost wins)', () => {
    const error = new NuwaError('TypeError', 'x').at({ line: 3, column: 4 });
    expect([error.line, error.column]).toEqual([3, 4]);
    error.at({ line: 9, column: 9 }, 'f.nuwa');
    expect([error.line, error.column, error.fileName]).toEqual([3, 4, 'f.nuwa']);
    error.at(undefined, 'other.nuwa');
    expect(error.fileName).toBe('f.nuwa');
  });

  it('serialises to JSON with the fields that are set', () => {
    const errors = [{ line: 1, column: 2, message: 'm' }];
    const error = new NuwaError('SyntaxError', 'm', { line: 1, column: 2, errors, fileName: 'p.nuwa' });
    expect(JSON.parse(JSON.stringify(error))).toEqual({ kind: 'SyntaxError', message: 'm', line: 1, column: 2, fileName: 'p.nuwa', errors });
  });

  it('isNuwaError tells NuwaErrors from other values', () => {
    expect(isNuwaError(new NuwaError('AbortedError', 'x'))).toBe(true);
    expect(isNuwaError(new Error('x'))).toBe(false);
    expect(isNuwaError({ kind: 'TypeError', message: 'x' })).toBe(false);
    expect(isNuwaError(null)).toBe(false);
  });
});
