// A throwaway Postgres cluster for the tests, made from the server binaries on the machine: `initdb`
// into a temporary folder, `postgres` on a free loopback port (and a Unix socket in that folder), and
// at the end a fast shutdown and the folder removed. One cluster serves a whole test run (the
// vitest globalSetup of test/support/postgres-setup.ts); each test file makes its own database.
//
// Why these choices:
// - A TCP port on 127.0.0.1, not only the socket: DBOS rewrites the connection string (it swaps the
//   database name to reach `postgres` when it creates its system database), and a plain
//   `postgres://postgres@127.0.0.1:PORT/db` survives that where a socket path in `?host=` may not.
// - As root, `initdb` and `postgres` refuse to run; they run as `nobody`, which owns nothing else,
//   rather than as Debian's `postgres` account, which owns the system's real clusters.
// - `setpriv --pdeathsig KILL` (util-linux) ties the server's life to the test runner's: when the
//   runner dies without its teardown (a SIGKILL, a crash), the kernel kills the postmaster, and its
//   backends exit on their own when they see it gone. A later run removes the folder it left.
// - Durability is off (`--no-sync`, `fsync=off`, ...): the data is thrown away, and speed matters.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** What the harness gives the tests (through vitest's provide/inject, see postgres-setup.ts). */
export interface PostgresInfo {
  /** A connection string for the superuser `postgres` and database `postgres`, over loopback TCP. */
  url: string;
  host: string;
  port: number;
  /** The folder holding the Unix socket (`.s.PGSQL.<port>`) and the cluster. */
  socketDir: string;
  /** The server's major version, e.g. 15. */
  version: number;
}

export interface PostgresServer extends PostgresInfo {
  /** Fast shutdown, then the folder removed. Safe to call twice. */
  stop(): Promise<void>;
}

/** The machine has no server binaries; the message is the one line a test run shows. */
export class MissingServerBinaries extends Error {
  constructor() {
    const where = process.env.NUWA_PG_BINDIR
      ? `in NUWA_PG_BINDIR=${process.env.NUWA_PG_BINDIR}`
      : 'through pg_config --bindir, in /usr/lib/postgresql/*/bin and on PATH';
    super(`Postgres server binaries not found (looked for initdb and postgres ${where}): install the Debian package postgresql (apt-get install postgresql)`);
  }
}

const FOLDER_PREFIX = 'nuwa-pg-';
const NOBODY = { uid: 65534, gid: 65534 };

/**
 * The folder that holds `initdb` and `postgres`, or undefined. `NUWA_PG_BINDIR` names the folder
 * to use (one major version among several), and then no other is looked at.
 */
export function findServerBinaries(): string | undefined {
  const chosen = process.env.NUWA_PG_BINDIR;
  const candidates: string[] = chosen ? [chosen] : [];
  if (!chosen) candidates.push(...searchedFolders());
  return candidates.find((dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'postgres')));
}

function searchedFolders(): string[] {
  const candidates: string[] = [];
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (pgConfig.status === 0) candidates.push(pgConfig.stdout.trim());
  // Debian keeps each major version's server in /usr/lib/postgresql/<major>/bin, off PATH; newest first.
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...majors.map((major) => path.join(debian, major, 'bin')));
  }
  candidates.push(...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean));
  return candidates;
}

/** Starts a new cluster. Rejects with MissingServerBinaries when there is no server on the machine. */
export async function startPostgres(): Promise<PostgresServer> {
  const bindir = findServerBinaries();
  if (!bindir) throw new MissingServerBinaries();
  removeAbandonedClusters();
  const folder = mkdtempSync(path.join(tmpdir(), FOLDER_PREFIX));
  writeFileSync(path.join(folder, 'runner.pid'), String(process.pid));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(folder, NOBODY.uid, NOBODY.gid);
  const run = commandPrefix(asRoot);
  try {
    const dataDir = path.join(folder, 'data');
    const initdb = spawnSync(run[0]!, [...run.slice(1), path.join(bindir, 'initdb'), '-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync', '--no-instructions'], {
      encoding: 'utf8',
      cwd: folder,
    });
    if (initdb.status !== 0) throw new Error(`initdb failed (status ${initdb.status}): ${lastLines(`${initdb.stdout}\n${initdb.stderr}`)}`);
    const version = Number(readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8').trim());
    // A free port can be taken between our probe and the server's bind (other test runs share the
    // machine): the server then exits at once, and we try another port.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const started = await startServer(run, bindir, dataDir, folder, port);
      if (started.ok) return serverHandle(started.child, folder, port, version);
      if (!started.portTaken || attempt === 5) throw new Error(`postgres did not start: ${started.reason}`);
    }
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/** The command and flags that run a server program: as `nobody` when we are root, tied to our life. */
function commandPrefix(asRoot: boolean): string[] {
  const setpriv = spawnSync('setpriv', ['--version'], { encoding: 'utf8' }).status === 0;
  if (asRoot && !setpriv) throw new Error('running the tests as root needs setpriv (Debian package util-linux) to start Postgres as nobody');
  if (!setpriv) return ['env'];
  const user = asRoot ? [`--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups'] : [];
  return ['setpriv', ...user, '--pdeathsig', 'KILL', '--'];
}

type Started = { ok: true; child: ChildProcess } | { ok: false; portTaken: boolean; reason: string };

async function startServer(run: string[], bindir: string, dataDir: string, folder: string, port: number): Promise<Started> {
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: folder,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    shared_buffers: '16MB',
    // DBOS keeps a pool of 10 per process; four workers, clients and parallel test files add up.
    max_connections: '300',
    // No autovacuum work on databases that live for seconds.
    autovacuum: 'off',
    log_min_messages: 'warning',
  };
  const flags = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const child = spawn(run[0]!, [...run.slice(1), path.join(bindir, 'postgres'), '-D', dataDir, '-p', String(port), ...flags], {
    cwd: folder,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  let exited = false;
  child.once('exit', () => (exited = true));
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    if (exited) return { ok: false, portTaken: /could not bind|already in use/i.test(log), reason: lastLines(log) };
    // Line 8 of postmaster.pid is the postmaster's status; `ready` once it accepts connections.
    if (existsSync(pidFile) && readFileSync(pidFile, 'utf8').split('\n')[7]?.trim() === 'ready') {
      child.stderr!.removeAllListeners('data').resume();
      return { ok: true, child };
    }
    await sleep(10);
  }
  child.kill('SIGKILL');
  return { ok: false, portTaken: false, reason: `not ready after 20 s: ${lastLines(log)}` };
}

function serverHandle(child: ChildProcess, folder: string, port: number, version: number): PostgresServer {
  let stopped: Promise<void> | undefined;
  // The runner ends without teardown (an uncaught error, process.exit): stop the server, synchronously.
  const onExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  const host = '127.0.0.1';
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    host,
    port,
    socketDir: folder,
    version,
    stop() {
      stopped ??= (async () => {
        process.off('exit', onExit);
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGINT'); // fast shutdown: open sessions are ended, no waiting for clients
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(timer);
        }
        rmSync(folder, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** Removes the folders of earlier runs whose runner died without its teardown (and whose server is gone). */
function removeAbandonedClusters(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const folder = path.join(tmpdir(), name);
    const runner = readPid(path.join(folder, 'runner.pid'));
    const server = readPid(path.join(folder, 'data', 'postmaster.pid'));
    if (runner !== undefined && !alive(runner) && (server === undefined || !alive(server))) rmSync(folder, { recursive: true, force: true });
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function lastLines(text: string, count = 5): string {
  return text.trim().split('\n').slice(-count).join(' | ');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `url` with another database name. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/**
 * A new, empty database on the cluster, named `prefix` plus a random suffix; resolves to its
 * connection string. Each test file (or test) takes its own, so that files run in parallel.
 */
export async function createDatabase(url: string, prefix: string): Promise<string> {
  const name = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return databaseUrl(url, name);
}
