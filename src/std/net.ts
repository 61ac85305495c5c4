// Which hosts the network tools may reach (TOOLS.md §12, `--allow-net`): a list of `host` (any
// port) or `host:port` entries, matched against a URL before anything connects, and again against
// every redirect. Host names are compared as the URL standard normalises them (lower case,
// punycode, IPv4 in dotted form, IPv6 in brackets), ports as the URL's effective port (the scheme's
// default when it names none). A name is allowed as a name: what it resolves to is the resolver's
// business, as with Deno's --allow-net.
import { StdOptionError, StdToolError } from './common.js';

interface AllowedHost {
  hostname: string;
  /** undefined: any port. */
  port: number | undefined;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

/** One `--allow-net` entry, normalised; a StdOptionError (naming the entry) when it is not a host. */
function parseEntry(entry: string): AllowedHost {
  const text = entry.trim();
  let host = text;
  let port: string | undefined;
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2];
  } else if (text.split(':').length === 2) {
    [host, port] = text.split(':') as [string, string];
  } else if (text.includes(':')) {
    host = `[${text}]`; // a bare IPv6 address, without a port
  }
  const invalid = () => new StdOptionError('allowNet', `"${entry}" is not a host or host:port (e.g. "127.0.0.1:8080", "api.example.com", "[::1]:8080")`);
  if (host === '' || /[/?#@\s\\]/.test(host) || (port !== undefined && !/^\d{1,5}$/.test(port))) throw invalid();
  let hostname: string;
  try {
    hostname = new URL(`http://${host}/`).hostname;
  } catch {
    throw invalid();
  }
  const portNumber = port === undefined ? undefined : Number(port);
  if (portNumber !== undefined && (portNumber < 1 || portNumber > 65535)) throw invalid();
  return { hostname, port: portNumber };
}

export class NetPolicy {
  private readonly allowed: AllowedHost[];

  constructor(entries: readonly string[]) {
    this.allowed = entries.map(parseEntry);
  }

  /** The URL, parsed, when its scheme is one of `schemes` and its host is allowed; else a StdToolError. */
  check(url: string, schemes: readonly string[]): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new StdToolError(`"${url}" is not a URL (write it whole, e.g. "${schemes[0]}//127.0.0.1:8080/path")`, 'BAD_URL');
    }
    if (!schemes.includes(parsed.protocol)) {
      throw new StdToolError(`"${url}": only ${schemes.map((s) => s.slice(0, -1)).join(' and ')} URLs are supported here`, 'BAD_URL');
    }
    const port = parsed.port === '' ? DEFAULT_PORTS[parsed.protocol]! : Number(parsed.port);
    if (!this.allowed.some((entry) => entry.hostname === parsed.hostname && (entry.port === undefined || entry.port === port))) {
      const host = `${parsed.hostname}:${port}`;
      const now = this.allowed.length === 0 ? 'no host is allowed' : `allowed: ${this.allowed.map(describe).join(', ')}`;
      throw new StdToolError(
        `${parsed.origin} is not an allowed host (${now}): allow it with --allow-net ${host} on the command line, or allowNet in createStdTools`,
        'HOST_NOT_ALLOWED',
      );
    }
    return parsed;
  }
}

function describe(entry: AllowedHost): string {
  return entry.port === undefined ? entry.hostname : `${entry.hostname}:${entry.port}`;
}

/** Calls `onAbort` when `signal` aborts, until the returned function is called (no AbortSignal.any: it leaks on Node 20). */
export function onAbort(signal: AbortSignal, onAbort: () => void): () => void {
  if (signal.aborted) {
    onAbort();
    return () => {};
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
