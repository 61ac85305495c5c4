// Worker-thread side of deep-parse.ts: parse on this thread's large stack and hand the result back.
import { workerData, type MessagePort } from 'node:worker_threads';
import { parseProblems } from './parse.js';

const { source, port, done } = workerData as { source: string; port: MessagePort; done: Int32Array };
try {
  // As JSON text, not as an object: structured-clone deserialisation recurses on the receiving
  // thread's small stack, while JSON.parse does not recurse at all.
  port.postMessage(JSON.stringify(parseProblems(source, { allowWorker: false })));
} catch (error) {
  port.postMessage({ crashed: error instanceof Error ? error.message : String(error) });
} finally {
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
}
