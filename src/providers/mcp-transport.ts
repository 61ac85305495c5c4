// The client side of MCP's stdio transport: starts the server (no shell) and exchanges JSON-RPC
// lines with it. It does what the SDK's StdioClientTransport does, with the line reader of
// json-lines.ts instead of the SDK's, whose buffer grows by concatenation (a 9 MB answer cost over a
// second, most of it copying) and which, on one answer over its cap, closes the connection, so that
// the call fails only once the server is gone, as "the server stopped". Here an answer over
// `maxMessageBytes` is skipped as it streams in, and the request it answers fails at once with an
// error that names the limit; the connection stays up for the next call.
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { bytesText, idOf, LineReader, looksLikeRequest, parseMessage, serializeMessage, type OversizedLine } from './json-lines.js';

/** The JSON-RPC error code of an answer over the size limit (in the range JSON-RPC leaves to implementations). */
export const TOO_LARGE_CODE = -32_001;

export interface StdioServerParameters {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** The most one message from the server may hold. */
  maxMessageBytes: number;
}

export class StdioClient implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** An answer over the limit whose request could not be told (no id in its first or last bytes). */
  onUnattributed?: (message: string) => void;
  /** The server's stderr, for the host to read. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private processId: number | null = null;
  private readonly reader: LineReader;
  /** An answer over the limit already failed (from its first bytes): its end is then only skipped. */
  private answered = false;

  constructor(private readonly parameters: StdioServerParameters) {
    this.reader = new LineReader(parameters.maxMessageBytes);
  }

  /** The server's process id, from its start until its end (also while closing). */
  get pid(): number | null {
    return this.processId;
  }

  start(): Promise<void> {
    if (this.child !== undefined) throw new Error('the MCP transport is already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.parameters.command, this.parameters.args, {
        env: this.parameters.env,
        cwd: this.parameters.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        this.processId = child.pid ?? null;
        resolve();
      });
      child.on('close', () => {
        this.child = undefined;
        this.processId = null;
        this.onclose?.();
      });
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('data', (chunk: Buffer) => this.received(chunk));
      child.stdout!.on('error', (error) => this.onerror?.(error));
      child.stderr!.pipe(this.stderr);
    });
  }

  private received(chunk: Buffer): void {
    for (const event of this.reader.push(chunk)) {
      if (event.kind === 'oversized') {
        this.tooLarge(event);
        continue;
      }
      const message = parseMessage(event.text);
      if (typeof message === 'string') this.onerror?.(new Error(`the server wrote a line that is ${message}`));
      else this.onmessage?.(message);
    }
  }

  private tooLarge(line: OversizedLine): void {
    if (this.answered) {
      if (line.complete) this.answered = false;
      return;
    }
    const id = idOf(line);
    if (id === undefined && !line.complete) return; // its end may show the id
    const limit = bytesText(this.reader.maxBytes);
    const size = line.complete ? `${bytesText(line.bytes)}` : `more than ${limit}`;
    const message = `the server's answer (${size}) is larger than the client's limit of ${limit} (maxMessageBytes); it was not read`;
    if (looksLikeRequest(line)) {
      // A request or notification from the server: it is refused, and the server told so if it waits.
      this.onerror?.(new Error(`the server sent a message of ${size}, over the limit of ${limit}; it was skipped`));
      if (id !== undefined) void this.send({ jsonrpc: '2.0', id, error: { code: TOO_LARGE_CODE, message: `the message is larger than the client's limit of ${limit}` } } as JSONRPCMessage).catch(() => {});
    } else if (id !== undefined) {
      this.onmessage?.({ jsonrpc: '2.0', id, error: { code: TOO_LARGE_CODE, message } } as JSONRPCMessage);
    } else {
      this.onUnattributed?.(message);
    }
    this.answered = !line.complete;
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (stdin === undefined || stdin === null) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes stdin, then after 2 s sends SIGTERM, then after 2 more SIGKILL (as the SDK's transport does). */
  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.child = undefined;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const within = (ms: number) => Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    await within(2_000);
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
      if (signal === 'SIGTERM') await within(2_000);
    }
  }
}
