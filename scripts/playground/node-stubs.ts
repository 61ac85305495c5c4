// ───────────────────────────────── TEMPORARY ─────────────────────────────────
// Stand-ins for Node's built-ins in the browser bundle of the playground page, until the main entry
// is browser-clean (the "one-way layers" restructuring; API.md v1.1: "nothing on its path needs
// Node's built-ins"). Remove this file, its use in build.ts and browser-shims.js then; the test
// "a minimal host bundled for the browser" (test/browser/host-bundle.test.ts) says when.
//
// What needed them (the page imports the layers it uses, not the main entry, so the providers of
// tools outside the process, which the entry installs, are not in it), and what the page gets:
//   src/tools/run.ts          node:crypto randomUUID     → the browser's crypto.randomUUID
//                             setImmediate (time slices) → browser-shims.js (a MessageChannel turn)
//                             Buffer.byteLength (PRINT)  → browser-shims.js (TextEncoder)
//   src/tools/session.ts      node:crypto randomUUID     → crypto.randomUUID
//   src/tools/execute.ts      node:crypto randomUUID     → crypto.randomUUID
//   src/tools/detached.ts     node:crypto randomUUID     → crypto.randomUUID
//   src/api/durable.ts        node:crypto randomUUID     → crypto.randomUUID
//   src/check/hash.ts         node:crypto createHash     → SHA-256 of @noble/hashes (the same digest)
//   src/util/digest.ts        node:crypto createHash, createHmac, timingSafeEqual; Buffer.from
//                                                        → @noble/hashes, a constant-time loop, TextEncoder
//   src/tools/sandbox.ts      node:fs, node:os, node:path → functions that throw: the page gives no
//                             sandbox directory, and only a tool asking for one would reach them
//   src/tools/forms.ts        node:async_hooks AsyncLocalStorage (an sdkwork caller's context)
//                             → a store seen during the synchronous part of run() only: the page
//                             calls no sdkwork tool with a caller context
// Globals used only where the page passes its own hooks (process.stdout, process.stderr as default
// print and logger; process.emitWarning for a registry listener that throws) are left alone.
// ──────────────────────────────────────────────────────────────────────────────
import type { Plugin } from 'esbuild';

const NAMESPACE = 'nuwa-node-stub';

/** Each stand-in's source (run in the browser). */
const STUBS: Record<string, string> = {
  'node:crypto': `
    import { sha256 } from '@noble/hashes/sha2.js';
    import { hmac } from '@noble/hashes/hmac.js';
    import { bytesToHex } from '@noble/hashes/utils.js';
    const encoder = new TextEncoder();
    const bytes = (data) => (typeof data === 'string' ? encoder.encode(data) : data);
    export const randomUUID = () => globalThis.crypto.randomUUID();
    function hexDigest(hash) {
      return {
        update(data) { hash.update(bytes(data)); return this; },
        digest(encoding) {
          if (encoding !== 'hex') throw new Error('only hex digests are available in the browser');
          return bytesToHex(hash.digest());
        },
      };
    }
    export function createHash(algorithm) {
      if (algorithm !== 'sha256') throw new Error('only sha256 is available in the browser');
      return hexDigest(sha256.create());
    }
    export function createHmac(algorithm, key) {
      if (algorithm !== 'sha256') throw new Error('only sha256 is available in the browser');
      return hexDigest(hmac.create(sha256, bytes(key)));
    }
    export function timingSafeEqual(a, b) {
      if (a.length !== b.length) throw new RangeError('timingSafeEqual: the inputs differ in length');
      let difference = 0;
      for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
      return difference === 0;
    }`,
  'node:fs': unavailable('node:fs', ['existsSync', 'lstatSync', 'mkdirSync', 'mkdtempSync', 'realpathSync', 'rm', 'rmSync']),
  'node:os': unavailable('node:os', ['tmpdir']),
  'node:async_hooks': `
    export class AsyncLocalStorage {
      #store = undefined;
      getStore() { return this.#store; }
      run(store, callback, ...args) {
        const outer = this.#store;
        this.#store = store;
        try { return callback(...args); } finally { this.#store = outer; }
      }
    }`,
  'node:path': `${unavailable('node:path', ['resolve', 'isAbsolute', 'relative', 'dirname', 'join'])}
    export const sep = '/';
    export default { resolve, isAbsolute, relative, dirname, join, sep };`,
};

function unavailable(what: string, names: string[]): string {
  return names.map((name) => `export function ${name}() { throw new Error('${what} is not available in a browser'); }`).join('\n');
}

/** The esbuild plugin: resolves each import above to its stand-in; any other Node built-in fails the build. */
export function nodeStubs(root: string): Plugin {
  return {
    name: 'nuwa-node-stubs (temporary)',
    setup(build) {
      build.onResolve({ filter: /^node:(async_hooks|crypto|fs|os|path)$/ }, (args) => ({ path: args.path, namespace: NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ contents: STUBS[args.path]!, loader: 'js', resolveDir: root }));
    },
  };
}
