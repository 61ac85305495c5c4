// Parses deeply nested (but legal) text on a worker thread with a large stack, synchronously.
// Chevrotain is a recursive-descent parser and every nesting level costs several stack frames, so
// on the host's default stack a cold parser overflows long before the 1,000 levels the language
// allows. The caller blocks on Atomics.wait until the worker posts the result; this costs a few tens
// of milliseconds and only text nested deeper than any real script pays it.
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { ParseOutcome } from './parse.js';

const WORKER_STACK_MB = 256;
const WORKER_TIMEOUT_MS = 60_000;

/** How to start the worker: the compiled .js sibling, or (sources run directly, as in tests) the .ts one through tsx. */
function workerSource(): { code: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { code: new URL('./parse-worker.js', import.meta.url), eval: false };
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('./parse-worker.ts', import.meta.url).href);
  return { code: `import(${tsx}).then((tsx) => { tsx.register(); return import(${entry}); })`, eval: true };
}

export function parseOnWorker(source: string): ParseOutcome {
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const entry = workerSource();
  const worker = new Worker(entry.code, {
    eval: entry.eval,
    workerData: { source, port: port2, done },
    transferList: [port2],
    resourceLimits: { stackSizeMb: WORKER_STACK_MB },
    stdout: false,
    stderr: false,
  });
  try {
    Atomics.wait(done, 0, 0, WORKER_TIMEOUT_MS);
    const received = receiveMessageOnPort(port1)?.message as string | { crashed: string } | undefined;
    const message = typeof received === 'string' ? (JSON.parse(received) as ParseOutcome) : received;
    if (message === undefined || 'crashed' in message) {
      const why = message && 'crashed' in message ? `: ${message.crashed}` : '';
      return { problems: [{ line: 1, column: 1, message: `the script nests too deeply to parse${why}` }] };
    }
    return message;
  } finally {
    port1.close();
    void worker.terminate();
  }
}
