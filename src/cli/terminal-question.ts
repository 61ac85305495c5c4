// One question asked on the terminal, for the commands that ask the person at it (an approval, a
// tool's context.ask): the prompt goes to stderr, so that stdout keeps only the script's output, and
// one line is read from stdin. readline is loaded only when someone is asked.
//
// What readline leaves open is closed here: input that ends (Ctrl-D) rejects instead of leaving the
// question unanswered for good, Ctrl-C interrupts the command as it does anywhere else (readline
// would only pause the input), and a signal (the run stopped) takes the question back.

/** The terminal's input ended before an answer was given. */
export class NoAnswerError extends Error {
  override readonly name = 'NoAnswerError';
}

/** Writes `prompt` to stderr and resolves to the line typed on stdin (without its line ending). */
export async function questionOnTerminal(prompt: string, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  let answered = false;
  const ended = new Promise<never>((_, reject) => {
    rl.once('close', () => {
      if (!answered) reject(new NoAnswerError('the terminal closed its input before an answer was given'));
    });
  });
  ended.catch(() => {}); // rejected only when no answer is coming; then the race below has seen it
  // On a terminal in raw mode Ctrl-C is a key readline reports, not a signal: send the signal, so
  // that the command stops the way Ctrl-C stops it elsewhere (the run's signal then takes the question back).
  rl.once('SIGINT', () => process.kill(process.pid, 'SIGINT'));
  try {
    const answer = await Promise.race([rl.question(prompt, signal ? { signal } : {}), ended]);
    answered = true;
    return answer;
  } finally {
    answered = true;
    rl.close();
  }
}
