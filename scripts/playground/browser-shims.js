// TEMPORARY (see node-stubs.ts): Node globals the interpreter uses, for the browser bundle of the
// playground page, injected by esbuild where the bundle names them. Remove with node-stubs.ts.

/** A macrotask turn, as Node's setImmediate gives (timers and input get their turn before it). */
export function setImmediate(callback, ...args) {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    callback(...args);
  };
  channel.port2.postMessage(null);
}

const encoder = new TextEncoder();

/** Only what the page's code asks of Buffer: the UTF-8 length of a string, and its bytes. */
export const Buffer = {
  byteLength: (text) => encoder.encode(text).length,
  from: (text) => encoder.encode(text),
};
