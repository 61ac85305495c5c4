// The CLI's streams, injectable so that tests and hosts can drive commands without a process.
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  /** Both stdin and stderr are terminals: the CLI may ask questions. */
  interactive: boolean;
  /** Colours on stderr. */
  color: boolean;
  /** Colours on stdout (a terminal, and NO_COLOR not set): for listings such as `nuwa tools`. */
  colorStdout?: boolean;
  cwd: string;
}

export function processIO(): CliIO {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR,
    colorStdout: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    cwd: process.cwd(),
  };
}

/** A usage error: exit status 2, message on stderr. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
