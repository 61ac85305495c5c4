// The stdio transport of MCP frames JSON-RPC messages as lines. The SDK's own reader joins every
// chunk into one growing buffer and scans all of it again for a newline at each chunk, which is
// quadratic (a 9 MB message took 13 s), and when a line passes its cap it drops its buffer and the
// connection with it (a server then stops serving; a client learns nothing until the server is
// gone). This reader keeps the chunks of a line apart, looks for a newline only in new bytes, and
// caps a line without giving up the connection: a line over the cap is skipped up to its newline,
// and reported, with its first and last bytes, so that the request it belongs to can be answered
// with an error that names the cap.
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** How many bytes of a line over the cap are kept from each end, to find the request id in. */
const KEPT = 512;

/** A line over the cap. `complete` once its newline arrived (then `tail` and `bytes` are final). */
export interface OversizedLine {
  head: string;
  tail: string;
  bytes: number;
  complete: boolean;
}

export type LineEvent = { kind: 'line'; text: string } | ({ kind: 'oversized' } & OversizedLine);

export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** While a line over the cap is being skipped: what is known of it. */
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  constructor(readonly maxBytes: number) {}

  /** The lines (and lines over the cap) that `chunk` completes; a line over the cap is reported as soon as it passes it, and again at its end. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (this.skipping !== undefined) {
        this.skipping.bytes += piece.length;
        this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, piece]));
      } else if (this.size + piece.length > this.maxBytes) {
        const joined = Buffer.concat([...this.chunks, piece.subarray(0, KEPT)]);
        this.skipping = { head: joined.subarray(0, KEPT), tail: lastBytes(Buffer.concat([...this.chunks.slice(-2), piece])), bytes: this.size + piece.length };
        this.chunks = [];
        this.size = 0;
        events.push({ kind: 'oversized', ...this.described(false) });
      } else if (piece.length > 0) {
        this.chunks.push(piece);
        this.size += piece.length;
      }
      if (newline === -1) break;
      if (this.skipping !== undefined) {
        events.push({ kind: 'oversized', ...this.described(true) });
        this.skipping = undefined;
      } else {
        const text = Buffer.concat(this.chunks, this.size).toString('utf8').replace(/\r$/, '');
        this.chunks = [];
        this.size = 0;
        if (text.trim() !== '') events.push({ kind: 'line', text });
      }
      start = newline + 1;
    }
    return events;
  }

  private described(complete: boolean): OversizedLine {
    const { head, tail, bytes } = this.skipping!;
    return { head: head.toString('utf8'), tail: tail.toString('utf8'), bytes, complete };
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= KEPT ? buffer : Buffer.from(buffer.subarray(buffer.length - KEPT));
}

/** A line as a JSON-RPC message, checked as the SDK checks it; or what it is instead (`not JSON`). */
export function parseMessage(text: string): JSONRPCMessage | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : 'JSON but not a JSON-RPC message';
}

export function serializeMessage(message: JSONRPCMessage): string {
  return `${JSON.stringify(message)}\n`;
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":7,...` or `{"id":7,...`: the id as the first member (after jsonrpc). */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}\s*,`);
/** `...,"id":7}`: the id as the last member, as the MCP SDK writes its messages. */
const ID_LAST = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);
/** A request or a notification has a method among its first members. */
const METHOD_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?(?:"id"\s*:\s*${ID}\s*,\s*)?"method"\s*:`);

/**
 * The id of a line too long to parse, when its first or last bytes show it (JSON-RPC writers put it
 * first or last), else undefined. Only the id's own position is trusted: an `"id"` inside the
 * parameters is never at the start of the object or right before its closing brace.
 */
export function idOf(line: OversizedLine): RequestId | undefined {
  const match = ID_FIRST.exec(line.head) ?? (line.complete ? ID_LAST.exec(line.tail) : null);
  if (match === null) return undefined;
  try {
    return JSON.parse(match[1]!) as RequestId;
  } catch {
    return undefined;
  }
}

/** Whether a line too long to parse is a request or notification (it names a method first), as far as its head shows. */
export function looksLikeRequest(line: OversizedLine): boolean {
  return METHOD_FIRST.test(line.head);
}

/** A size for messages: `10 MiB`, `512 KiB`, `300 bytes`. */
export function bytesText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
