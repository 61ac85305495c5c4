// When the CLI colours what it writes. The colour library decides, by the conventions every program
// using it follows: picocolors turns colour off with NO_COLOR, on with FORCE_COLOR (and in CI), and
// otherwise on when stdout is a terminal whose TERM is not `dumb`. Its verdict is about stdout;
// stderr shares it where stderr is a terminal too, or where stdout is not one (the verdict was then
// forced, and forcing colours every stream), so that `nuwa run x 2> errors.txt` writes no escapes
// into the file. `--color` and `--no-color` on the command line come first: a person's explicit
// choice for this command overrides the environment (no-color.org asks for exactly that).
import pc from 'picocolors';

/** Whether to colour each stream. */
export interface ColorChoice {
  stdout: boolean;
  stderr: boolean;
}

/** The colour library's verdict for the real process's streams (or those given, for tests). */
export function detectColor(
  terminals: { stdout: boolean; stderr: boolean } = { stdout: process.stdout.isTTY === true, stderr: process.stderr.isTTY === true },
  verdict: boolean = pc.isColorSupported,
): ColorChoice {
  return { stdout: verdict, stderr: verdict && (terminals.stderr || !terminals.stdout) };
}

/**
 * `--color` → true, `--no-color` → false (the later one when both are given), neither → undefined.
 * Every command that colours accepts both (COLOR_OPTIONS), so any `--color` before `--` is one.
 */
export function colorFlag(args: readonly string[]): boolean | undefined {
  let flag: boolean | undefined;
  for (const arg of args) {
    if (arg === '--') break;
    if (arg === '--color') flag = true;
    else if (arg === '--no-color') flag = false;
  }
  return flag;
}

/** The options of the commands that colour (run, check, repl, tools, runs). */
export const COLOR_OPTIONS = {
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
} as const;

/** The line of their help texts. */
export const COLOR_HELP = `  --color, --no-color       colour the output even where it is not a terminal, or never (default:
                            on a terminal, unless NO_COLOR is set or TERM is dumb; FORCE_COLOR forces it)
`;
