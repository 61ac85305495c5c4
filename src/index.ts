// The public API of Nuwa (API.md), and nothing else. The one thing it does besides exporting is to
// tell the registry where the providers of tools outside the process are (loaded when first used).
import { installProviders } from './providers/install.js';

installProviders();

export { Interpreter } from './api/interpreter.js';
export type { InterpreterOptions, RunOptions, RunResult, ScriptScope, StartOptions, ResumeOptions, RecoverOptions, RunOutcome, JournaledOutcome } from './api/types.js';
export type { Checkpoint, CheckpointStatus } from './api/checkpoint.js';
export type { RunStore, RunWriter, RunEntry, RunHeader, RunStatus, RunSummary, StoredRun, StoredResult, UnfinishedCall } from './api/store.js';
export { MemoryRunStore } from './api/memory-store.js';
export { FileRunStore } from './api/file-store.js';
export type { CallJournal, CallOutcome, Decision, PendingCall, RecordedCall } from './tools/journal.js';
export { ToolRegistry } from './tools/registry.js';
export type { ExecutableOptions, ExecutablesLoaded, LoadFailure, McpConnectOptions, McpConnection } from './tools/outside.js';
export type { RegisteredTool, FunctionSchema, ToolRegistryOptions, ToolsetTool, RegistryEvent, RegistryEventType, RegistryListener } from './tools/registry.js';
export type { FunctionCall, ToolResult, ToolResultMetadata, ExecuteOptions, ExecuteDefaults } from './tools/execute.js';
export { toOpenAITools, toAnthropicTools } from './tools/function-calling.js';
export type { OpenAITool, AnthropicTool } from './tools/function-calling.js';
export { defineTool } from './tools/forms.js';
export type { DefineToolSpec, DefinedTool, DefinedToolContext, DefinedToolMark, PlaitedHandler, PlaitedSchema } from './tools/forms.js';
export type { SearchOptions, SearchResult } from './tools/search.js';
export { exportedName, fromExportedName } from './tools/names.js';
export { addToolsetRegistration, createRegistrationFunc, defineNeuroTool, registerExtendedTools } from './views/neuroscript.js';
export type {
  NeuroArgSpec,
  NeuroArgType,
  NeuroLlmClient,
  NeuroLogger,
  NeuroRegisterFunc,
  NeuroRegistrar,
  NeuroRuntime,
  NeuroTool,
  NeuroToolFunc,
  NeuroToolImplementation,
  NeuroToolSpec,
} from './views/neuroscript.js';
export { buildPrompt } from './prompt/prompt.js';
export type { PromptOptions } from './prompt/prompt.js';
export { Session } from './tools/session.js';
export { parse } from './syntax/parse.js';
export type { ParseOptions } from './syntax/parse.js';
export { check, plan } from './check/check.js';
export type { CheckOptions, PlanOptions, Plan, PlannedCall, ApprovalNeed } from './check/check.js';
export type { Problem, ProblemKind, Severity, WarningKind } from './check/problems.js';
export type { ApprovedPlan } from './check/approval.js';
export { extractScript } from './syntax/extract.js';
export { NuwaError, isNuwaError, ERROR_KINDS } from './errors.js';
export type { ErrorKind, Position, SyntaxProblem } from './errors.js';
export { DEFAULT_LIMITS } from './tools/limits.js';
export type { Limits } from './tools/limits.js';
export { BUILTIN_NAMES } from './syntax/functions.js';
export type { NuwaEvent, EventType, EventListener, RunStats } from './events.js';
export type { TracerLike, SpanLike, TraceContextLike, TraceAttributes, TraceAttributeValue, TraceOptions } from './tools/tracing.js';
export type { JsonValue, JsonObject } from './values/json.js';
export type * from './tools/types.js';
export type * as AST from './syntax/ast.js';
// The other tool systems' APIs, as their users know them (TOOLS.md §11; docs/tool-systems.md).
export { createToolRegistry, PlaitedToolRegistry, createCoreTools, createToolDiscovery } from './views/plaited/index.js';
export type { PlaitedResult } from './views/plaited/index.js';
export type * as Plaited from './views/plaited/types.js';
export { asSdkworkRegistry } from './views/sdkwork.js';
export type * as Sdkwork from './views/sdkwork.js';
export type { SdkworkRegistry } from './views/sdkwork.js';
export { discoverTools, createToolExecutor } from './views/rs-sdk.js';
export type * as RsSdk from './views/rs-sdk.js';
