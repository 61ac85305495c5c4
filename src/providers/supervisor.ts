// Tools must not outlive the host even when the host cannot clean up: killed with SIGKILL (the OOM
// killer does that), it runs no exit handler, and a tool it started would live on with its children.
//
// So the first time a tool process is started, the host starts one small supervisor process of its
// own (a `node -e` of supervisorMain below, in a session of its own so that a Ctrl-C meant for the
// host does not reach it) and keeps a pipe to its stdin. The host writes `+<group>` when a tool's
// process group starts and `-<group>` when it has ended. The supervisor does nothing else until the
// pipe closes, which the kernel does when the host dies, however it dies; then it kills every group
// still registered and exits. A supervisor that cannot be started or dies leaves the host's own
// clean-up (on exit, on timeouts, on cancellation) as it was.
//
// What stays out of reach: a tool that leaves its process group (setsid, or a double fork into a
// group of its own) is no longer in the group the supervisor kills.
import { spawn, type ChildProcess } from 'node:child_process';

let supervisor: ChildProcess | undefined;
let unavailable = false;

/** Registers a tool's process group with the supervisor (started on first use). */
export function superviseGroup(group: number): void {
  tell(`+${group}\n`);
}

/** The group has ended: the supervisor forgets it (its number may be reused). */
export function releaseGroup(group: number): void {
  if (supervisor !== undefined) tell(`-${group}\n`);
}

function tell(line: string): void {
  const child = running();
  if (child === undefined) return;
  try {
    child.stdin!.write(line);
  } catch {
    forget(child);
  }
}

function running(): ChildProcess | undefined {
  if (supervisor !== undefined || unavailable) return supervisor;
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, ['-e', `(${supervisorMain.toString()})()`], {
      // ELECTRON_RUN_AS_NODE: a host running in Electron starts plain Node.
      env: { PATH: process.env.PATH ?? '', ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
  } catch {
    unavailable = true;
    return undefined;
  }
  supervisor = child;
  // Neither the process nor its pipe keeps the host's event loop alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  child.stdin!.on('error', () => forget(child));
  child.once('error', () => {
    forget(child);
    unavailable = true; // it could not be started: do not try on every call
  });
  child.once('exit', () => forget(child));
  return child;
}

function forget(child: ChildProcess): void {
  if (supervisor === child) supervisor = undefined;
}

/**
 * The supervisor's program, run as `node -e`; it must not refer to anything outside itself. It reads
 * `+group` and `-group` lines; when its stdin ends (the host is gone), it kills every group it holds.
 */
function supervisorMain(): void {
  const groups = new Set<number>();
  let pending = '';
  process.title = 'nuwa-supervisor';
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      const group = Number(line.slice(1));
      if (Number.isInteger(group) && group > 1) {
        if (line[0] === '+') groups.add(group);
        else if (line[0] === '-') groups.delete(group);
      }
      newline = pending.indexOf('\n');
    }
  });
  const end = () => {
    for (const group of groups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    process.exit(0);
  };
  process.stdin.on('end', end);
  process.stdin.on('close', end);
  process.stdin.on('error', end);
}
