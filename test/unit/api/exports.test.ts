// The public surface of src/index.ts (API.md): what a host imports from the package.
import { describe, expect, it } from 'vitest';
import * as nuwa from '../../../src/index.js';

describe('public API exports', () => {
  it('exports the classes and functions API.md names', () => {
    expect(typeof nuwa.Interpreter).toBe('function');
    expect(typeof nuwa.ToolRegistry).toBe('function');
    expect(typeof nuwa.createToolRegistry).toBe('function');
    expect(typeof nuwa.parse).toBe('function');
    expect(typeof nuwa.extractScript).toBe('function');
    expect(typeof nuwa.NuwaError).toBe('function');
    expect(typeof nuwa.isNuwaError).toBe('function');
    expect(typeof nuwa.Session).toBe('function');
    expect(new nuwa.NuwaError('TypeError', 'x')).toBeInstanceOf(Error);
  });

  it('exports function calling, the other systems’ tool forms and prompts (TOOLS.md §1, §5, §10)', () => {
    for (const name of ['defineTool', 'toOpenAITools', 'toAnthropicTools', 'buildPrompt', 'exportedName', 'fromExportedName'] as const) {
      expect(typeof nuwa[name], name).toBe('function');
    }
  });

  it('exports the views of the other tool systems (TOOLS.md §11), loading nothing optional', async () => {
    for (const name of ['createToolRegistry', 'createCoreTools', 'createToolDiscovery', 'asSdkworkRegistry', 'discoverTools', 'createToolExecutor'] as const) {
      expect(typeof nuwa[name], name).toBe('function');
    }
    expect(nuwa.createToolRegistry()).toBeInstanceOf(nuwa.ToolRegistry);
    expect(nuwa.createToolRegistry()).toBeInstanceOf(nuwa.PlaitedToolRegistry);
    // The types of Plaited, sdkwork and RS-SDK are reachable under their namespaces, and StateValueWithMetadata at the top.
    const result: nuwa.Plaited.ToolResult = { success: true, data: 1 };
    const meta: nuwa.Sdkwork.ToolExecutionMeta = { executionId: 'e', toolId: 't', toolName: 'T', startTime: 0, endTime: 0, duration: 0 };
    const definition: nuwa.RsSdk.ToolDefinition = { type: 'function', function: { name: 'n', description: 'd', parameters: { type: 'object' } } };
    const state: nuwa.StateValueWithMetadata = { value: 1, metadata: { description: 'one' } };
    expect([result.success, meta.toolId, definition.type, state.value]).toEqual([true, 't', 'function', 1]);
    // nuwa-script/plaited has the same functions under Plaited's own names.
    const plaited = await import('../../../src/plaited.js');
    expect(plaited.createToolRegistry).toBe(nuwa.createToolRegistry);
    expect(plaited.createToolDiscovery).toBe(nuwa.createToolDiscovery);
  });

  it('exports the NeuroScript view (TOOLS.md §11)', () => {
    for (const name of ['defineNeuroTool', 'createRegistrationFunc', 'addToolsetRegistration', 'registerExtendedTools'] as const) {
      expect(typeof nuwa[name], name).toBe('function');
    }
    expect(typeof nuwa.ToolRegistry.prototype.loadPlugin).toBe('function');
  });

  it('ERROR_KINDS lists every error kind of LANGUAGE.md §6', () => {
    expect([...nuwa.ERROR_KINDS].sort()).toEqual(
      [
        'SyntaxError',
        'UndefinedVariableError',
        'TypeError',
        'DivisionByZeroError',
        'MemberAccessError',
        'IndexOutOfBoundsError',
        'InvalidConditionError',
        'InvalidIterableError',
        'UnknownFunctionError',
        'FunctionArgumentError',
        'CalcError',
        'ToolNotFoundError',
        'ToolArgumentError',
        'ToolExecutionError',
        'ToolResultError',
        'ToolDeniedError',
        'LimitExceededError',
        'AbortedError',
        'ReplayError',
        'ConflictError',
      ].sort(),
    );
  });

  it('NuwaError keeps kind, position, fileName, cause and toolName', () => {
    const cause = new Error('inner');
    const error = new nuwa.NuwaError('ToolExecutionError', 'msg', { line: 3, column: 4, fileName: 'f.nuwa', cause, toolName: 't' });
    expect(error.name).toBe('NuwaError');
    expect([error.kind, error.message, error.line, error.column, error.fileName, error.toolName]).toEqual(['ToolExecutionError', 'msg', 3, 4, 'f.nuwa', 't']);
    expect(error.cause).toBe(cause);
    expect(nuwa.isNuwaError(error)).toBe(true);
    expect(nuwa.isNuwaError(new Error('x'))).toBe(false);
  });
});
