// Executable tools (TOOLS.md §9) with real processes: discovery, the envelope, failures quoting
// stderr, timeouts and cancellation that kill the whole process group, bounded output, environment.
import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Interpreter } from '../../../src/api/interpreter.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { failure } from '../../support/harness.js';
import { bashTool, isAlive, readPids, tempDir, waitFor, writeTool } from '../../support/processes.js';
import { installProviders } from '../../../src/providers/install.js';

// The registry finds its providers through the package's entry, which these tests bypass.
installProviders();

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/tools');
const anyArgs = { type: 'object', additionalProperties: true };
const info = (name: string, extra: object = {}) => ({ name, description: `the ${name} tool`, parameters: anyArgs, confirm: 'none', ...extra });

async function load(dir: string, options = {}) {
  const registry = new ToolRegistry();
  const loaded = await registry.loadExecutables(dir, options);
  const printed: string[] = [];
  const interpreter = new Interpreter(registry, { print: (line) => printed.push(line) });
  return { registry, loaded, interpreter, printed };
}

describe('discovery', () => {
  it('loads the example tools in bash, Python and Node', async () => {
    const { registry, loaded } = await load(examples);
    expect(loaded.failures).toEqual([]);
    expect(loaded.tools.sort()).toEqual(['calculate_distance', 'slugify', 'system_info']);
    const tool = registry.lookup('calculate_distance')!;
    expect(tool.source).toBe('executable');
    expect(tool.confirm).toBe('none');
    expect(tool.category).toBe('data');
    expect(tool.timeoutMs).toBe(30_000);
    expect(registry.lookup('system_info')!.timeoutMs).toBe(5_000);
  });

  it('skips dot files, underscore files, directories and files that are not executable', async () => {
    const dir = tempDir();
    bashTool(dir, 'good', info('good'), 'echo \'{"success":true,"data":1}\'');
    bashTool(dir, '.hidden', info('hidden'), '');
    bashTool(dir, '_helper', info('helper'), '');
    writeFileSync(path.join(dir, 'notes.txt'), 'not a tool');
    mkdirSync(path.join(dir, 'subdir'));
    const { loaded } = await load(dir);
    expect(loaded.tools).toEqual(['good']);
    expect(loaded.failures).toEqual([]);
  });

  it('reports each file whose --tool-info fails, hangs or prints no valid schema, and loads the rest', async () => {
    const dir = tempDir();
    bashTool(dir, 'good', info('good'), 'echo \'{"success":true,"data":1}\'');
    writeTool(dir, 'garbage', '#!/usr/bin/env bash\necho "usage: garbage [options]"\n');
    writeTool(dir, 'hangs', '#!/usr/bin/env bash\nsleep 30\n');
    writeTool(dir, 'crashes', '#!/usr/bin/env bash\necho "boom: missing library" >&2\nexit 4\n');
    bashTool(dir, 'no_name', { description: 'x' }, '');
    bashTool(dir, 'bad_confirm', info('bad_confirm', { confirm: 'maybe' }), '');
    bashTool(dir, 'bad_name', info('bad-name'), '');
    bashTool(dir, 'bad_schema', info('bad_schema', { parameters: { type: 'object', properties: { a: { type: 'nonsense' } } } }), '');
    bashTool(dir, 'z_duplicate', info('good'), ''); // probed after `good`, in name order
    const started = Date.now();
    const { loaded } = await load(dir, { probeTimeoutMs: 2_500 });
    expect(Date.now() - started).toBeLessThan(15_000); // the hanging probe did not hold the others
    expect(loaded.tools).toEqual(['good']);
    const reasons = Object.fromEntries(loaded.failures.map((f) => [path.basename(f.source), f.reason]));
    expect(Object.keys(reasons).sort()).toEqual(['bad_confirm', 'bad_name', 'bad_schema', 'crashes', 'garbage', 'hangs', 'no_name', 'z_duplicate']);
    expect(reasons.garbage).toMatch(/--tool-info printed no JSON schema: "usage: garbage/);
    expect(reasons.hangs).toMatch(/--tool-info did not finish within 2500 ms/);
    expect(reasons.crashes).toMatch(/--tool-info exited with status 4; stderr: boom: missing library/);
    expect(reasons.no_name).toMatch(/"name" must be a non-empty string/);
    expect(reasons.bad_confirm).toMatch(/confirm must be one of/);
    expect(reasons.bad_name).toMatch(/not a valid tool name/);
    expect(reasons.bad_schema).toMatch(/not a valid JSON Schema/);
    expect(reasons.z_duplicate).toMatch(/already registered/);
  });

  it('reports a schema whose $ref comes back to itself in one line naming where, and loads the rest', async () => {
    const dir = tempDir();
    bashTool(dir, 'good', info('good'), 'echo \'{"success":true,"data":1}\'');
    bashTool(dir, 'self', info('self', { parameters: { type: 'object', properties: { a: { $ref: '#/properties/a' } } } }), '');
    bashTool(dir, 'loop', info('loop', { parameters: { type: 'object', properties: { a: { $ref: '#/$defs/b' } }, $defs: { b: { $ref: '#/$defs/c' }, c: { allOf: [{ $ref: '#/$defs/b' }] } } } }), '');
    const tree = { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } };
    bashTool(dir, 'tree', info('tree', { parameters: { type: 'object', properties: { root: { $ref: '#/$defs/node' } }, $defs: { node: tree } } }), 'echo \'{"success":true,"data":1}\'');
    const { loaded, interpreter, printed } = await load(dir);
    expect(loaded.tools.sort()).toEqual(['good', 'tree']);
    const reasons = Object.fromEntries(loaded.failures.map((f) => [path.basename(f.source), f.reason]));
    expect(reasons.self).toBe('tool "self": its parameters schema has a $ref cycle at #/properties/a');
    expect(reasons.loop).toMatch(/^tool "loop": its parameters schema has a \$ref cycle at #\/\$defs\/[bc]$/);
    // a recursive schema that goes down into the value on each step is fine, and checks deep values
    await interpreter.run('PRINT(CALL tree { root: { kids: [{ kids: [{ kids: [] }] }] } })');
    expect(printed).toEqual(['1']);
    const error = await failure(interpreter.run('CALL tree { root: { kids: [{ kids: [1] }] } }'));
    expect(error.kind).toBe('ToolArgumentError');
  });

  it('fails as a whole for a directory that does not exist', async () => {
    await expect(new ToolRegistry().loadExecutables('/no/such/dir')).rejects.toThrow(/cannot load tools from \/no\/such\/dir: no such directory/);
  });
});

describe('calls', () => {
  it('passes checked and coerced arguments as JSON on stdin, and returns data', async () => {
    const { interpreter, printed } = await load(examples);
    await interpreter.run('LET d = CALL calculate_distance { x1: 0, y1: "0", x2: 3, y2: 4 }\nPRINT(d.euclidean)\nPRINT(CALL slugify { text: "Hello, World" })');
    expect(printed).toEqual(['5', 'hello-world']);
  });

  it('checks arguments against the schema before anything is spawned', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'ran');
    bashTool(dir, 'strict', info('strict', { parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }), `touch ${marker}\necho '{"success":true,"data":1}'`);
    const { interpreter } = await load(dir);
    const error = await failure(interpreter.run('CALL strict { n: 1.5 }'));
    expect(error.kind).toBe('ToolArgumentError');
    expect((await failure(interpreter.run('CALL strict {}'))).kind).toBe('ToolArgumentError');
    expect(existsSync(marker)).toBe(false);
  });

  it('applies the envelope rules: data; no data → the other fields; success false → ToolExecutionError', async () => {
    const dir = tempDir();
    bashTool(dir, 'with_data', info('with_data'), 'echo \'{"success":true,"data":[1,2]}\'');
    bashTool(dir, 'no_data', info('no_data'), 'echo \'{"success":true,"total":3,"unit":"kg"}\'');
    bashTool(dir, 'refuses', info('refuses'), 'echo \'{"success":false,"error":"city not found"}\'\nexit 1');
    bashTool(dir, 'refuses_obj', info('refuses_obj'), 'echo \'{"success":false,"error":{"message":"quota exceeded","code":"E_QUOTA"}}\'');
    const { interpreter, printed } = await load(dir);
    await interpreter.run('PRINT(CALL with_data {})\nPRINT(CALL no_data {})');
    expect(printed).toEqual(['[1,2]', '{"total":3,"unit":"kg"}']);
    const refused = await failure(interpreter.run('CALL refuses {}'));
    expect(refused.kind).toBe('ToolExecutionError');
    expect(refused.message).toBe('tool `refuses` failed: city not found');
    const refusedObj = await failure(interpreter.run('CALL refuses_obj {}'));
    expect(refusedObj.message).toBe('tool `refuses_obj` failed: quota exceeded');
    expect((refusedObj.cause as { code?: string }).code).toBe('E_QUOTA');
  });

  it('turns garbage, silence, a bare value, a non-zero exit and a crash into ToolExecutionError quoting stderr', async () => {
    const dir = tempDir();
    bashTool(dir, 'garbage', info('garbage'), 'echo "Segmentation fault? no: plain text"\necho "warning: odd input" >&2');
    bashTool(dir, 'silent', info('silent'), 'true');
    bashTool(dir, 'bare', info('bare'), 'echo 42');
    bashTool(dir, 'exits', info('exits'), 'for i in 1 2 3 4 5 6 7; do echo "log line $i" >&2; done\necho "Error: cannot reach the API" >&2\nexit 3');
    bashTool(dir, 'crashes', info('crashes'), 'kill -SEGV $$');
    const { interpreter } = await load(dir);
    const garbage = await failure(interpreter.run('CALL garbage {}'));
    expect(garbage.kind).toBe('ToolExecutionError');
    expect(garbage.message).toMatch(/printed something that is not JSON: "Segmentation fault\? no: plain text"; stderr: warning: odd input/);
    expect((await failure(interpreter.run('CALL silent {}'))).message).toMatch(/printed nothing on stdout/);
    expect((await failure(interpreter.run('CALL bare {}'))).message).toMatch(/not a result envelope/);
    const exits = await failure(interpreter.run('CALL exits {}'));
    expect(exits.message).toMatch(/exited with status 3; stderr: log line 4 \| log line 5 \| log line 6 \| log line 7 \| Error: cannot reach the API$/);
    expect((await failure(interpreter.run('CALL crashes {}'))).message).toMatch(/was killed by SIGSEGV/);
  });

  it('passes the environment through, with NUWA_SESSION_ID, NUWA_EXECUTION_ID, NUWA_SANDBOX_DIR and the given env', async () => {
    const dir = tempDir();
    bashTool(
      dir,
      'env_tool',
      info('env_tool'),
      'printf \'{"success":true,"data":{"session":"%s","execution":"%s","sandbox":"%s","extra":"%s","path":"%s"}}\' "$NUWA_SESSION_ID" "$NUWA_EXECUTION_ID" "$NUWA_SANDBOX_DIR" "$EXTRA_SETTING" "${PATH:+set}"',
    );
    const registry = new ToolRegistry();
    await registry.loadExecutables(dir, { env: { EXTRA_SETTING: 'on' } });
    const sandboxDir = tempDir();
    const session = registry.createSession('session-42');
    const interpreter = new Interpreter(registry, { session, sandboxDir });
    const { variables } = await interpreter.run('LET e = CALL env_tool {}');
    const e = variables.e as Record<string, string>;
    expect(e.session).toBe('session-42');
    expect(e.execution).toMatch(/^[0-9a-f-]+:1$/);
    expect(e.sandbox).toBe(sandboxDir);
    expect(e.extra).toBe('on');
    expect(e.path).toBe('set');
  });

  it('never lets arguments reach a shell: they are data on stdin', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'pwned');
    bashTool(dir, 'echo_input', info('echo_input'), 'input=$(cat)\nprintf \'{"success":true,"data":%s}\' "$input"');
    const { interpreter } = await load(dir);
    const text = `$(touch ${marker}); touch ${marker} \`touch ${marker}\``;
    const { variables } = await interpreter.run(`LET r = CALL echo_input { text: ${JSON.stringify(text)} }`);
    expect(variables.r).toEqual({ text });
    expect(existsSync(marker)).toBe(false);
  });

  it('gives executables without a declared risk level the level write: they need approval', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'ran');
    bashTool(dir, 'undeclared', { name: 'undeclared', description: 'says nothing about its effects' }, `touch ${marker}\necho '{"success":true}'`);
    const { registry, interpreter } = await load(dir);
    expect(registry.lookup('undeclared')!.confirm).toBe('write');
    expect((await failure(interpreter.run('CALL undeclared {}'))).kind).toBe('ToolDeniedError');
    expect(existsSync(marker)).toBe(false);
    await new Interpreter(registry, { approve: () => true }).run('CALL undeclared {}');
    expect(existsSync(marker)).toBe(true);
  });
});

describe('runaway tools', () => {
  it('kills a tool that hangs when its timeout passes (LimitExceededError)', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    bashTool(dir, 'hangs', info('hangs', { timeoutMs: 1_500 }), `echo $$ >> ${pids}\nsleep 60`);
    const { interpreter } = await load(dir);
    const error = await failure(interpreter.run('CALL hangs {}'));
    expect(error.kind).toBe('LimitExceededError');
    expect(error.message).toMatch(/took longer than its timeoutMs \(1500 ms\)/);
    const [pid] = await readPids(pids, 1);
    expect(pid).toBeGreaterThan(0);
    expect(await waitFor(() => !isAlive(pid!))).toBe(true);
  });

  it('uses the directory timeout for tools that set none, and kills the children a tool forked', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    // The tool starts a child that would outlive it, then waits.
    bashTool(dir, 'forks', info('forks'), `sleep 60 &\necho $! >> ${pids}\necho $$ >> ${pids}\nwait`);
    const { registry, interpreter } = await load(dir, { timeoutMs: 1_500 });
    expect(registry.lookup('forks')!.timeoutMs).toBe(1_500);
    const error = await failure(interpreter.run('CALL forks {}'));
    expect(error.kind).toBe('LimitExceededError');
    const [child, parent] = await readPids(pids, 2);
    expect(child).toBeGreaterThan(0);
    expect(parent).toBeGreaterThan(0);
    expect(await waitFor(() => !isAlive(child!) && !isAlive(parent!))).toBe(true);
  });

  it('kills the tool when the run is cancelled', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    bashTool(dir, 'hangs', info('hangs'), `sleep 60 &\necho $! >> ${pids}\nwait`);
    const { interpreter } = await load(dir);
    const controller = new AbortController();
    const running = failure(interpreter.run('CALL hangs {}', { signal: controller.signal }));
    const [child] = await readPids(pids, 1);
    expect(child).toBeGreaterThan(0);
    controller.abort();
    expect((await running).kind).toBe('AbortedError');
    expect(await waitFor(() => !isAlive(child!))).toBe(true);
  });

  it('leaves nothing behind when a tool returns while a child it started still runs', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    bashTool(dir, 'leaves', info('leaves'), `sleep 60 &\necho $! >> ${pids}\necho '{"success":true,"data":"done"}'`);
    const { interpreter, printed } = await load(dir);
    const started = Date.now();
    await interpreter.run('PRINT(CALL leaves {})');
    expect(printed).toEqual(['done']);
    expect(Date.now() - started).toBeLessThan(10_000); // the child's open stdout did not hold the call
    const [child] = await readPids(pids, 1);
    expect(child).toBeGreaterThan(0);
    expect(await waitFor(() => !isAlive(child!))).toBe(true);
  });

  it('stops a tool that prints more than the output limit, with a clear error', async () => {
    const dir = tempDir();
    bashTool(dir, 'floods', info('floods'), 'head -c 5000000 /dev/zero | tr "\\0" "a"');
    bashTool(dir, 'endless', info('endless'), 'yes "{}"');
    const { interpreter } = await load(dir, { maxOutputBytes: 1024 * 1024 });
    const flood = await failure(interpreter.run('CALL floods {}'));
    expect(flood.kind).toBe('ToolExecutionError');
    expect(flood.message).toMatch(/printed more than 1048576 bytes on stdout, so it was stopped/);
    expect((await failure(interpreter.run('CALL endless {}'))).message).toMatch(/printed more than 1048576 bytes/);
  });

  it('refuses bad options', async () => {
    await expect(new ToolRegistry().loadExecutables(examples, { timeoutMs: -1 })).rejects.toThrow(/`timeoutMs` must be a positive number/);
  });
});

describe('the file on disk', () => {
  it('reports a tool whose file disappeared as a ToolExecutionError', async () => {
    const dir = tempDir();
    const file = bashTool(dir, 'vanishes', info('vanishes'), 'echo \'{"success":true}\'');
    const { interpreter } = await load(dir);
    unlinkSync(file);
    const error = await failure(interpreter.run('CALL vanishes {}'));
    expect(error.kind).toBe('ToolExecutionError');
    expect(error.message).toMatch(/cannot run .*vanishes: no such file/);
  });
});
