// What the runtime needs of its surroundings that Node and browsers spell differently: ids, a turn
// of the event loop, the UTF-8 size of text. Written once here, so that every layer above runs in
// both (CLI.md: the main entry runs in browsers).
import { intern } from './intern.js';

/**
 * A random UUID (Node 20 and browsers have the Web Crypto global). Node builds its text by joining
 * pieces, a tree of strings of some 490 bytes; every run and session keeps its id while it lives, so
 * the id kept is the engine's one flat copy (68 bytes): a tenth of a waiting run's memory otherwise.
 */
export function randomId(): string {
  return intern(globalThis.crypto.randomUUID());
}

const postMacrotask: (callback: () => void) => void =
  typeof setImmediate === 'function'
    ? (callback) => void setImmediate(callback)
    : (() => {
        // In a browser, a message to ourselves runs after timers and input like setImmediate does,
        // without setTimeout's 4 ms clamp on nested calls.
        const channel = new MessageChannel();
        const queue: Array<() => void> = [];
        (channel.port1 as unknown as { onmessage: () => void }).onmessage = () => queue.shift()?.();
        return (callback) => {
          queue.push(callback);
          channel.port2.postMessage(null);
        };
      })();

/** Resolves after the event loop has had a turn (timers, I/O, input). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => postMacrotask(resolve));
}

/** The number of bytes `text` takes in UTF-8 (lone surrogates as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: 4 bytes for its 2 units
      i++;
    } else bytes += 2;
  }
  return bytes;
}
