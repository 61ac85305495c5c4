// The Interpreter (API.md): runs scripts against a registry, with a session, limits, an approval
// policy, events and output routing. Each run gets its own Run state; the compiled program is
// cached per AST, so running one parsed script many times compiles it once; a short text run again
// shares its tree (parsed-texts.ts), while a long text, parsed in slices for one run, keeps nothing
// of its compiled form.
import { NuwaError, isNuwaError } from '../errors.js';
import type { JsonValue } from '../values/json.js';
import type { Program } from '../syntax/ast.js';
import { isShortSource, parseInSlices, parseWithRecovery, syntaxError } from '../syntax/parse.js';
import { Sandbox } from '../tools/sandbox.js';
import { Session } from '../tools/session.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ConfirmLevel, Logger } from '../tools/types.js';
import { limitsFrom, type Limits } from '../tools/limits.js';
import { readTraceOptions } from '../tools/tracing.js';
import { hostLogger } from '../tools/run.js';
import { ScriptRun } from '../runtime/script-run.js';
import { Scope } from '../runtime/scope.js';
import { PlanBudget, type ApprovedPlan } from '../check/approval.js';
import { plan as planScript, type Plan, type PlanOptions } from '../check/check.js';
import { asFindings, findingsBesideSyntaxErrors } from '../check/findings.js';
import { fromJson, type ValueLimits } from '../values/values.js';
import { callHook, describeThrown } from '../util/foreign.js';
import { Options, shown } from '../util/options.js';
import { utf8Length } from '../util/platform.js';
import type { InterpreterOptions, JournaledOutcome, RecoverOptions, ResumeOptions, RunOptions, RunOutcome, RunResult, ScriptScope, StartOptions } from './types.js';
import { recoverRun, resumeRun, startRun, type DurableHost, type DurableRunSettings, type ScriptEnd } from './durable.js';
import type { Checkpoint } from './checkpoint.js';
import type { CallJournal } from '../tools/journal.js';
import { keepParsedText, parsedText } from './parsed-texts.js';
import { ScriptState, endScript, endedScript, resultOfRun, runProgram } from './script-ending.js';


/** The levels that need approval when the host names none: one Set for every Interpreter. */
const DEFAULT_NEEDS_APPROVAL: ReadonlySet<ConfirmLevel> = new Set<ConfirmLevel>(['write', 'destructive']);

const quiet = () => {};
const sameEnd = (end: ScriptEnd): ScriptEnd => end;
const CONFIRM_LEVELS: readonly ConfirmLevel[] = ['none', 'read', 'write', 'destructive'];
const LOGGER_METHODS = ['debug', 'info', 'warn', 'error'] as const;
const NEEDS_APPROVAL_IS = `a list of confirm levels (${CONFIRM_LEVELS.join(', ')})`;
const isSession = (value: unknown) => value instanceof Session;
const isCheckpointKey = (value: unknown) => (typeof value === 'string' && value !== '') || (value instanceof Uint8Array && value.length > 0);

export class Interpreter {
  readonly registry: ToolRegistry;
  /** The print hook and the session, most hosts' only options, in fields of their own. */
  private readonly print: ((line: string) => void) | undefined;
  private readonly givenSession: Session | undefined;
  /** The host's other options as checked: each read once, here; unknown ones kept as given. */
  private readonly options: InterpreterOptions;
  private readonly limits: Required<Limits>;
  /** Made when a run's tool first asks for its directory (most never do). */
  #sandbox: Sandbox | undefined = undefined;
  private readonly logger: Logger;
  private readonly needsApproval: ReadonlySet<ConfirmLevel>;

  constructor(registry: ToolRegistry = new ToolRegistry(), options: InterpreterOptions = {}) {
    const where = 'new Interpreter(registry, options)';
    if (!isToolRegistry(registry)) throw new NuwaError('TypeError', `${where}: registry must be a ToolRegistry, got ${shown(registry)}`);
    this.registry = registry;
    const given = Options.of(where, options);
    const snapshot = given.snapshot();
    const known: InterpreterOptions = {
      print: given.function('print', 'a function (line) => void'),
      session: given.check<Session>('session', isSession, 'a session from registry.createSession()'),
      approve: given.function('approve', 'a function ({ toolName, confirm, category, args }) => boolean'),
      ask: given.function('ask', 'a function (question) => answer'),
      llm: given.function('llm', 'a function (request) => answer'),
      needsApproval: given.listOf('needsApproval', CONFIRM_LEVELS, NEEDS_APPROVAL_IS),
      onEvent: given.function('onEvent', 'a function (event) => void'),
      sandboxDir: given.nonEmptyString('sandboxDir'),
      logger: given.methods('logger', LOGGER_METHODS) as Partial<Logger> | undefined,
      onApproval: given.oneOf('onApproval', ['deny', 'pause'] as const),
      checkpointKey: given.check<string | Uint8Array>('checkpointKey', isCheckpointKey, 'a non-empty string or Uint8Array'),
      tracer: undefined, // read last, as they always were (the first bad option is the one reported)
      traceContent: undefined,
    };
    const trace = readTraceOptions(given);
    known.tracer = trace.tracer;
    known.traceContent = trace.traceContent;
    this.print = known.print;
    this.givenSession = known.session;
    this.options = keptOptions(known, snapshot);
    this.limits = limitsFrom(given.nested('limits')); // bad limits are refused now, not at the first run
    this.logger = hostLogger(this.options.logger);
    this.needsApproval = this.options.needsApproval === undefined ? DEFAULT_NEEDS_APPROVAL : new Set(this.options.needsApproval);
  }

  /** The directory tools may write in (sandboxDir, or a temporary one): made when first asked for, by a run's tool. */
  get sandbox(): Sandbox {
    return (this.#sandbox ??= new Sandbox(this.options.sandboxDir));
  }

  get session(): Session {
    return this.givenSession ?? this.registry.defaultSession;
  }

  /** Runs a script (source text or a parsed AST). Rejects with a NuwaError. */
  run(script: string | Program, options: RunOptions = NO_RUN_OPTIONS): Promise<RunResult> {
    // Not an async function, nor a `then` on runScript's promise: either would be one more object
    // for every waiting run. runScript settles the host's promise itself, with resultOfRun.
    try {
      return this.runScript(script, readRunOptions(options, 'run(script, options)'), undefined, resultOfRun);
    } catch (error) {
      return Promise.reject(error); // bad options reject, as from an async function
    }
  }

  /**
   * A run of the script, however it ends: run() and the durable runs (durable.ts) share it. With a
   * journal the run is durable: its calls are recorded (and replayed from the record), and a call
   * waiting for a decision pauses it (`paused`). The options were read and checked by the caller.
   *
   * Not an async function: a host may have thousands of runs waiting on tools at once, and each
   * would keep this function's suspended frame (its registers and promises, some 600 bytes). A run
   * that waits is followed by a ScriptEnding instead; only long text, parsed in slices, and a parse
   * that spent the time slice go through an async path (runAfterParsing).
   */
  private runScript<T>(script: string | Program, options: RunOptions, durable: DurableRunSettings | undefined, settle: (end: ScriptEnd) => T): Promise<T> {
    let state: ScriptState<T>;
    try {
      state = this.beginScript(options, durable, settle);
    } catch (error) {
      return Promise.reject(error);
    }
    const { run } = state;
    try {
      bindInitialVariables(state.top, options.variables, run.valueLimits);
      // Parsing counts toward the run's time and can be cancelled: long text is parsed in slices,
      // with the run's clock and the event loop checked between them; short text (most scripts)
      // in one step, so that a short CALL-free script runs to its end before run() returns.
      if (typeof script === 'string' && !isShortSource(checkSourceSize(script, this.limits.maxSourceBytes))) return this.runAfterParsing(state, script);
      const program = typeof script !== 'string' ? checkProgram(script) : this.parse(script, options.fileName, options.variables);
      state.program = program;
      if (options.approvedPlan !== undefined) run.usePlan(PlanBudget.of(options.approvedPlan, program));
      // A parse in one step may have spent the deadline or the slice too.
      const parsed = run.checkpoint();
      if (parsed !== undefined) return this.runAfterParsing(state, parsed);
    } catch (thrown) {
      return endedScript(state, thrown);
    }
    return runProgram(state);
  }

  /** The run of a script, its top scope and its start announced: everything before its text is read. */
  private beginScript<T>(options: RunOptions, durable: DurableRunSettings | undefined, settle: (end: ScriptEnd) => T): ScriptState<T> {
    const { fileName } = options;
    const run = new ScriptRun({
      registry: this.registry,
      session: this.session,
      limits: durable?.maxConcurrentCalls === undefined ? this.limits : { ...this.limits, maxConcurrentCalls: durable.maxConcurrentCalls },
      print: this.print ?? quiet, // quiet by default: the lines are in result.output
      approve: this.options.approve,
      ask: this.options.ask,
      llm: this.options.llm,
      needsApproval: this.needsApproval,
      onEvent: this.options.onEvent,
      logger: this.logger,
      sandbox: this, // its sandbox, made if a tool asks
      fileName,
      signal: options.signal,
      tracer: this.options.tracer,
      traceContent: this.options.traceContent,
      ...(durable && { runId: durable.runId, journal: durable.journal, elapsedMs: durable.elapsedMs, pauseForApproval: durable.pauseForApproval ?? this.options.onApproval === 'pause' }),
    });
    if (durable !== undefined) countPrinted(durable.journal, run);
    // Without the run's clock: the variables are read after the run stopped too (for the error report).
    const limits = variableLimitsOf(this.limits);
    const top = new Scope(null, null, null, limits);
    run.emit?.({ type: 'script:started', executionId: run.runId, timestamp: Date.now(), sessionId: run.session.id, fileName });
    return new ScriptState(this.registry, run, top, limits, options, durable, settle);
  }

  /**
   * The rest of runScript after a wait before the program starts: long text parsed in slices (then
   * `parsing` is the text), or the turn of the event loop a parse in one step ended with.
   */
  private async runAfterParsing<T>(state: ScriptState<T>, parsing: string | Promise<void>): Promise<T> {
    const { run, options } = state;
    try {
      if (typeof parsing === 'string') {
        const program = await parseInSlices(parsing, { fileName: options.fileName }, () => run.checkpoint());
        state.program = program;
        state.runOnce = true;
        if (options.approvedPlan !== undefined) run.usePlan(PlanBudget.of(options.approvedPlan, program));
        parsing = run.checkpoint() ?? Promise.resolve();
      }
      await parsing;
    } catch (thrown) {
      return state.settle(endScript(state, thrown));
    }
    return runProgram(state);
  }

  /**
   * The program of a script's text, or its SyntaxError, which carries with its syntax errors what the
   * checker finds in what the parser recovered (check/findings.ts): one run names every mistake it can.
   */
  private parse(source: string, fileName: string | undefined, variables: Record<string, unknown> | undefined): Program {
    // A text run again shares the tree (and so the compiled closures) of its last run: parsed-texts.ts.
    const known = parsedText(source);
    if (known !== undefined) return known;
    const outcome = parseWithRecovery(source);
    if ('program' in outcome) {
      keepParsedText(source, outcome.program);
      return outcome.program;
    }
    const error = syntaxError(outcome.problems, fileName, outcome.problemCount);
    const findings = findingsBesideSyntaxErrors(outcome.problems, outcome.recovered, this.registry, Object.keys(variables ?? {}));
    if (findings.length > 0) error.findings = asFindings(findings);
    throw error;
  }

  /**
   * Starts a durable run (DURABLE.md §2): like run(), but a call that needs a decision (the approve
   * hook answers 'pause', or `onApproval: 'pause'`) pauses it, and the outcome's checkpoint resumes it
   * later, in this process or another. With a store, the run is recorded as it goes (recover()).
   */
  start(source: string, options: StartOptions = {}): Promise<RunOutcome> {
    return startRun(this.durableHost, source, options);
  }

  /** Resumes a paused run from its checkpoint, with the host's decisions for the calls it waits at. */
  resume(checkpoint: Checkpoint, options: ResumeOptions = {}): Promise<RunOutcome> {
    return resumeRun(this.durableHost, checkpoint, options);
  }

  /**
   * Finishes a run whose process died, from its store's record: finished calls are not made again;
   * a call that was in progress is made again only if its tool is safe to repeat, else the run
   * pauses there (`uncertain`) for a person to decide.
   */
  recover(runId: string, options: RecoverOptions): Promise<RunOutcome> {
    return recoverRun(this.durableHost, runId, options);
  }

  /**
   * Runs a script with a journal of an integration's own (tools/journal.ts): how a durable engine
   * records and replays a run's calls its own way (nuwa-script/dbos makes each call a DBOS step).
   * Hosts use start, resume and recover; this is for integrations. Two options override the
   * interpreter's own for this run: `onApproval` (`'pause'`: a call that needs approval and that no
   * approve hook decides waits for a decision, as a durable engine's runs do), and
   * `maxConcurrentCalls` (1 for an engine that replays calls by the order they start in).
   */
  async runWithJournal(source: string, journal: CallJournal, options: RunOptions & { runId: string; elapsedMs?: number; onApproval?: 'deny' | 'pause'; maxConcurrentCalls?: number }): Promise<JournaledOutcome> {
    const where = 'runWithJournal(source, journal, options)';
    const given = Options.of(where, options);
    const runId = given.nonEmptyString('runId');
    if (runId === undefined) throw given.bad('runId', 'a non-empty string');
    const elapsedMs = given.nonNegative('elapsedMs') ?? 0;
    const onApproval = given.oneOf('onApproval', ['deny', 'pause'] as const);
    const maxConcurrentCalls = given.check<number>('maxConcurrentCalls', (value) => Number.isInteger(value) && (value as number) >= 1, 'a whole number of at least 1');
    const ended = await this.runScript(source, readRunOptions(options, where), {
      runId,
      journal,
      elapsedMs,
      ...(onApproval !== undefined && { pauseForApproval: onApproval === 'pause' }),
      ...(maxConcurrentCalls !== undefined && { maxConcurrentCalls }),
    }, sameEnd);
    if (ended.ok) return { status: 'completed', result: ended.result };
    if (ended.paused) return { status: 'paused', pending: [...journal.pending], stats: ended.stats, state: ended.state };
    return { status: 'failed', error: ended.error, stats: ended.stats };
  }

  private get durableHost(): DurableHost {
    const listener = this.options.onEvent;
    return {
      runScript: (source, options, durable) => this.runScript(source, options, durable, sameEnd),
      restoreState: (state) => {
        for (const [key, value] of Object.entries(state)) this.session.setState(key, value);
      },
      checkpointKey: this.options.checkpointKey,
      emit: listener === undefined ? undefined : (event) => callHook(listener, [event], (error) => this.logger.warn(`an onEvent listener threw on ${event.type}: ${describeThrown(error)}`)),
    };
  }

  /**
   * What the script may do, without running it (API.md `plan`): with this interpreter's tools and
   * approval levels. Show it, and run with `{ approvedPlan }` once a person approved it.
   */
  plan(script: string | Program, options: Omit<PlanOptions, 'needsApproval'> = {}): Plan {
    const given = Options.of('interpreter.plan(script, options)', options);
    return planScript(script, this.registry, { variables: given.get('variables') as PlanOptions['variables'], needsApproval: [...this.needsApproval] });
  }

  /**
   * Removes the default sandbox directory, if a tool made one (a directory given as sandboxDir is
   * left alone). The Interpreter stays usable: a later tool that asks gets a new directory.
   */
  dispose(): void {
    this.#sandbox?.dispose();
  }

  /** Original NuwaScript name: runs source text and resolves to the top-level scope. */
  async executeScript(source: string, options: RunOptions = {}): Promise<ScriptScope> {
    return toScriptScope((await this.run(source, options)).variables);
  }

  /** Original NuwaScript name: runs a parsed AST and resolves to the top-level scope. */
  async execute(ast: Program, options: RunOptions = {}): Promise<ScriptScope> {
    return toScriptScope((await this.run(ast, options)).variables);
  }
}

/** A durable run's journal counts the lines printed (a function of its own: a closure in beginScript would cost every run a context). */
function countPrinted(journal: CallJournal, run: ScriptRun): void {
  journal.countPrintedBy?.(() => run.printed);
}

/** variableLimitsOf's objects, by the Interpreter's limits (most Interpreters share DEFAULT_LIMITS). */
const variableLimits = new WeakMap<Required<Limits>, ValueLimits>();

/**
 * maxValueSize and maxStringLength of `limits`, without a run's clock: what a run's variables keep
 * to, read after the run has stopped too. One frozen object for all the runs of the same limits,
 * not one for each (a host may have thousands waiting).
 */
function variableLimitsOf(limits: Required<Limits>): ValueLimits {
  let known = variableLimits.get(limits);
  if (known === undefined) {
    known = Object.freeze({ maxValueSize: limits.maxValueSize, maxStringLength: limits.maxStringLength });
    variableLimits.set(limits, known);
  }
  return known;
}

/** The options of an Interpreter given none but print and session: one for all of them. */
const NO_OTHER_OPTIONS: InterpreterOptions = Object.freeze({});

/**
 * The options to keep beside print and session: the known ones the host gave (an Interpreter keeps
 * no slot for an option it was not given: a host may make one per run), then those this version
 * does not know, as given.
 */
function keptOptions(known: InterpreterOptions, snapshot: Record<string, unknown>): InterpreterOptions {
  let kept: Record<string, unknown> | undefined;
  for (const key in known) {
    const value = known[key as keyof InterpreterOptions];
    if (value !== undefined && key !== 'print' && key !== 'session') (kept ??= {})[key] = value;
  }
  for (const key in snapshot) {
    if (Object.hasOwn(snapshot, key) && !Object.hasOwn(known, key)) Object.defineProperty((kept ??= {}), key, { value: snapshot[key], enumerable: true, writable: true, configurable: true });
  }
  return (kept ?? NO_OTHER_OPTIONS) as InterpreterOptions;
}


/** The options of a run given none: read once, shared by every such run (which keeps them until it ends). */
const NO_RUN_OPTIONS: RunOptions = Object.freeze({ variables: undefined, signal: undefined, fileName: undefined, approvedPlan: undefined });

/** The options of one run, each read once and checked before the run starts. */
function readRunOptions(options: unknown, where: string): RunOptions {
  if (options === NO_RUN_OPTIONS) return NO_RUN_OPTIONS;
  const given = Options.of(where, options);
  return {
    variables: given.object('variables', 'an object of name → JSON value') as Record<string, unknown> | undefined,
    signal: given.signal(),
    fileName: given.string('fileName'),
    approvedPlan: given.object('approvedPlan', 'a plan made by plan() or interpreter.plan()') as ApprovedPlan | undefined,
  };
}

/** Whether `value` is a ToolRegistry; never throws (a Proxy's getPrototypeOf trap may). */
function isToolRegistry(value: unknown): value is ToolRegistry {
  try {
    return value instanceof ToolRegistry;
  } catch {
    return false;
  }
}

function toScriptScope(variables: Record<string, JsonValue>): ScriptScope {
  return {
    variables,
    get: (name) => (Object.hasOwn(variables, name) ? variables[name] : undefined),
    has: (name) => Object.hasOwn(variables, name),
  };
}

/** The script's text, unless it is longer than maxSourceBytes (refused before it is parsed). */
function checkSourceSize(source: string, maxSourceBytes: number): string {
  // UTF-8 is at most 3 bytes per UTF-16 unit: most scripts are known to fit without counting.
  if (source.length * 3 <= maxSourceBytes) return source;
  const bytes = utf8Length(source);
  if (bytes <= maxSourceBytes) return source;
  throw new NuwaError('LimitExceededError', `the script is ${bytes} bytes long, more than maxSourceBytes (${maxSourceBytes})`, { line: 1, column: 1 });
}

function checkProgram(script: unknown): Program {
  if (script !== null && typeof script === 'object' && (script as Program).type === 'Program' && Array.isArray((script as Program).body)) return script as Program;
  throw new NuwaError('SyntaxError', 'run() needs script text or a Program from parse()', { line: 1, column: 1, errors: [] });
}

function bindInitialVariables(top: Scope, variables: Record<string, unknown> | undefined, limits: ValueLimits): void {
  if (variables === undefined) return;
  if (variables === null || typeof variables !== 'object') throw new NuwaError('TypeError', 'the initial variables must be an object of name → JSON value');
  for (const [name, value] of Object.entries(variables)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new NuwaError('TypeError', `"${name}" is not a valid variable name`);
    try {
      top.assign(name, fromJson(value, limits));
    } catch (error) {
      if (isNuwaError(error)) throw new NuwaError(error.kind, `the initial variable \`${name}\`: ${error.message}`);
      throw new NuwaError('TypeError', `the initial variable \`${name}\` is not a JSON value: ${describeThrown(error)}`);
    }
  }
}
