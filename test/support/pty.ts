// A real pseudo-terminal around a command, for tests of interactive behaviour. Tests wait for
// output to appear (never for fixed times), so they hold on a loaded machine.
import pty from '@lydell/node-pty';

// The escape sequences readline and colours write (cursor moves, clears, colours).
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

export class Terminal {
  /** Everything the program wrote, as written (escape sequences included). */
  raw = '';
  private readonly process: pty.IPty;
  private readonly exited: Promise<number>;
  private waiters: Array<() => void> = [];

  constructor(file: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }) {
    // Unset variables must be left out: the pty library would pass them as the text "undefined".
    const env = Object.fromEntries(Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    this.process = pty.spawn(file, args, { name: 'xterm-256color', cols: 120, rows: 40, cwd: options.cwd, env });
    this.process.onData((data) => {
      this.raw += data;
      for (const wake of this.waiters) wake();
    });
    this.exited = new Promise((resolve) => this.process.onExit(({ exitCode }) => resolve(exitCode)));
  }

  /** The output as a person would read it: no escape sequences, no carriage returns. */
  get text(): string {
    return this.raw.replace(ANSI, '').replace(/\r/g, '');
  }

  /** Where the output ends now: pass it to waitFor to look only at what comes after. */
  mark(): number {
    return this.text.length;
  }

  write(data: string): void {
    this.process.write(data);
  }

  /** Waits until the readable output after `from` matches; fails with the output seen so far. */
  waitFor(pattern: string | RegExp, from = 0, timeoutMs = 20_000): Promise<string> {
    const matches = () => {
      const after = this.text.slice(from);
      return typeof pattern === 'string' ? after.includes(pattern) : pattern.test(after);
    };
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!matches()) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve(this.text.slice(from));
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`timed out waiting for ${String(pattern)}; the terminal shows:\n${this.text.slice(from)}`));
      }, timeoutMs);
      this.waiters.push(check);
      check();
    });
  }

  /** The exit status, or a failure if the program does not end in time (it is killed then). */
  async exit(timeoutMs = 20_000): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.kill();
        reject(new Error(`the program did not exit; the terminal shows:\n${this.text}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    try {
      this.process.kill();
    } catch {
      // already gone
    }
  }
}
