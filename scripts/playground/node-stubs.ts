// ───────────────────────────────── TEMPORARY ─────────────────────────────────
// Stand-ins for Node's built-ins in the browser bundle of the playground page, until the main entry
// is browser-clean (the "one-way layers" restructuring; API.md v1.1: "nothing on its path needs
// Node's built-ins"). Remove this file, its use in build.ts and browser-shims.js then; the test
// "a minimal host bundled for the browser" (test/browser/host-bundle.test.ts) says when.
//
// What needed them, and what the page gets instead:
//   src/runtime/run.ts        node:crypto randomUUID     → the browser's crypto.randomUUID
//                             setImmediate (time slices) → browser-shims.js (a MessageChannel turn)
//                             Buffer.byteLength (PRINT)  → browser-shims.js (TextEncoder)
//   src/tools/session.ts      node:crypto randomUUID     → crypto.randomUUID
//   src/tools/execute.ts      node:crypto randomUUID     → crypto.randomUUID
//   src/tools/detached.ts     node:crypto randomUUID     → crypto.randomUUID
//   src/check/hash.ts         node:crypto createHash     → SHA-256 of @noble/hashes (same digest)
//   src/tools/sandbox.ts      node:fs, node:os, node:path → functions that throw: the page gives no
//                             sandbox directory, and only a tool asking for one would reach them
//   src/tools/registry.ts     import('../providers/executables.js'), import('../providers/mcp-client.js')
//                             (child processes, the MCP SDK) → modules whose functions throw: the
//                             page loads no executables and no MCP servers
// ──────────────────────────────────────────────────────────────────────────────
import path from 'node:path';
import type { Plugin } from 'esbuild';

const NAMESPACE = 'nuwa-node-stub';

/** Each stand-in's source (run in the browser). */
const STUBS: Record<string, string> = {
  'node:crypto': `
    import { sha256 } from '@noble/hashes/sha2.js';
    import { bytesToHex } from '@noble/hashes/utils.js';
    export const randomUUID = () => globalThis.crypto.randomUUID();
    export function createHash(algorithm) {
      if (algorithm !== 'sha256') throw new Error('only sha256 is available in the browser');
      const hash = sha256.create();
      const encoder = new TextEncoder();
      return {
        update(text) { hash.update(encoder.encode(text)); return this; },
        digest(encoding) {
          if (encoding !== 'hex') throw new Error('only hex digests are available in the browser');
          return bytesToHex(hash.digest());
        },
      };
    }`,
  'node:fs': unavailable('node:fs', ['existsSync', 'lstatSync', 'mkdirSync', 'mkdtempSync', 'realpathSync', 'rm', 'rmSync']),
  'node:os': unavailable('node:os', ['tmpdir']),
  'node:path': `${unavailable('node:path', ['resolve', 'isAbsolute', 'relative', 'dirname', 'join'])}
    export const sep = '/';
    export default { resolve, isAbsolute, relative, dirname, join, sep };`,
  executables: unavailable('tools from executables (--tools-dir)', ['loadExecutables']),
  'mcp-client': unavailable('MCP servers (--mcp)', ['connectMcp']),
};

function unavailable(what: string, names: string[]): string {
  return names.map((name) => `export function ${name}() { throw new Error('${what} is not available in a browser'); }`).join('\n');
}

/** The esbuild plugin: resolves each import above to its stand-in; any other Node built-in fails the build. */
export function nodeStubs(root: string): Plugin {
  return {
    name: 'nuwa-node-stubs (temporary)',
    setup(build) {
      build.onResolve({ filter: /^node:(crypto|fs|os|path)$/ }, (args) => ({ path: args.path, namespace: NAMESPACE }));
      build.onResolve({ filter: /\/providers\/(executables|mcp-client)\.js$/ }, (args) =>
        args.importer.endsWith(path.join('src', 'tools', 'registry.ts')) ? { path: path.basename(args.path, '.js'), namespace: NAMESPACE } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ contents: STUBS[args.path]!, loader: 'js', resolveDir: root }));
    },
  };
}
