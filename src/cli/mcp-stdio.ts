// The stdio transport of `nuwa mcp`: JSON-RPC messages as lines on stdin and stdout. It replaces the
// SDK's StdioServerTransport, which closes itself (and so ends the server, silently) when one
// message passes its buffer's cap: here one bad message from a client never stops the server. A
// message over the cap is answered with an error naming the cap (when its id can be read from its
// first or last bytes) and reported on stderr; a line that is not a JSON-RPC message is reported
// and skipped; everything else goes on.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { bytesText, idOf, LineReader, parseMessage, serializeMessage, type OversizedLine } from '../providers/json-lines.js';

/** The most one message from a client may hold (the MCP SDK's own default). */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface StdioServerOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  maxMessageBytes?: number;
  /** Where the transport says what it skipped (one line each). */
  report: (line: string) => void;
}

export class NuwaStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly input: NodeJS.ReadableStream;
  private readonly output: NodeJS.WritableStream;
  private readonly reader: LineReader;
  private readonly report: (line: string) => void;
  private closed = false;

  constructor(options: StdioServerOptions) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.reader = new LineReader(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    this.report = options.report;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  private readonly onData = (chunk: Buffer | string): void => {
    for (const event of this.reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
      if (event.kind === 'line') this.receive(event.text);
      else this.tooLarge(event);
    }
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private receive(text: string): void {
    const message = parseMessage(text);
    if (typeof message === 'string') {
      this.report(`skipped a line that is ${message}: ${clip(text)}`);
      void this.answer({ jsonrpc: '2.0', error: { code: ErrorCode.ParseError, message: `the line is ${message}` } } as JSONRPCMessage);
      return;
    }
    this.onmessage?.(message);
  }

  /** A message over the cap: answered at once when its first bytes show its id, else when its end does. */
  private answeredEarly = false;
  private tooLarge(line: OversizedLine): void {
    if (this.answeredEarly) {
      if (line.complete) this.answeredEarly = false;
      return;
    }
    const id = idOf(line);
    if (id === undefined && !line.complete) return; // perhaps its end shows the id
    const cap = bytesText(this.reader.maxBytes);
    const message = `the message is larger than this server's limit of ${cap}; it was not read`;
    this.report(`skipped a message of ${line.complete ? `${line.bytes} bytes` : `more than ${cap}`}${id === undefined ? '' : ` (request ${JSON.stringify(id)})`}: over the limit of ${cap}`);
    void this.answer({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: { code: ErrorCode.InvalidRequest, message } } as JSONRPCMessage);
    this.answeredEarly = !line.complete;
  }

  private answer(message: JSONRPCMessage): Promise<void> {
    return this.send(message).catch(() => {});
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(serializeMessage(message))) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.onclose?.();
  }
}

function clip(text: string): string {
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
}
