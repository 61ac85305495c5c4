// Unit tests for src/std/net.ts: the allowed-hosts list (allowNet, --allow-net) and how a URL is
// matched against it, before anything connects (TOOLS.md §12).
import { describe, expect, it } from 'vitest';
import { StdOptionError, StdToolError } from '../../../src/std/common.js';
import { NetPolicy } from '../../../src/std/net.js';
import { thrownBy } from '../../support/thrown.js';

const HTTP = ['http:', 'https:'];

function allows(entries: string[], url: string, schemes = HTTP): boolean {
  try {
    new NetPolicy(entries).check(url, schemes);
    return true;
  } catch (error) {
    if (error instanceof StdToolError) return false;
    throw error;
  }
}

describe('NetPolicy', () => {
  it('matches host:port exactly, and a bare host on any port', () => {
    expect(allows(['127.0.0.1:8080'], 'http://127.0.0.1:8080/a')).toBe(true);
    expect(allows(['127.0.0.1:8080'], 'http://127.0.0.1:8081/a')).toBe(false);
    expect(allows(['127.0.0.1'], 'http://127.0.0.1:8081/a')).toBe(true);
    expect(allows(['127.0.0.1'], 'https://127.0.0.1/a')).toBe(true);
  });

  it("uses the scheme's default port when the URL names none", () => {
    expect(allows(['api.example.com:443'], 'https://api.example.com/v1')).toBe(true);
    expect(allows(['api.example.com:443'], 'http://api.example.com/v1')).toBe(false);
    expect(allows(['api.example.com:80'], 'ws://api.example.com/feed', ['ws:'])).toBe(true);
    expect(allows(['api.example.com:80'], 'http://api.example.com:80/')).toBe(true);
  });

  it('compares host names as URLs write them: case, IPv4 forms, IPv6 brackets', () => {
    expect(allows(['API.Example.COM'], 'https://api.example.com/')).toBe(true);
    expect(allows(['api.example.com'], 'https://API.EXAMPLE.com/')).toBe(true);
    expect(allows(['127.0.0.1'], 'http://127.1/')).toBe(true);
    expect(allows(['[::1]:8080'], 'http://[::1]:8080/')).toBe(true);
    expect(allows(['::1'], 'http://[::1]:9000/')).toBe(true);
    expect(allows(['[::1]:8080'], 'http://[::1]:8081/')).toBe(false);
  });

  it('does not resolve names: localhost and 127.0.0.1 are different hosts', () => {
    expect(allows(['127.0.0.1'], 'http://localhost/')).toBe(false);
    expect(allows(['localhost'], 'http://127.0.0.1/')).toBe(false);
  });

  it('is not fooled by user info or look-alike hosts', () => {
    expect(allows(['127.0.0.1'], 'http://127.0.0.1@evil.example/')).toBe(false);
    expect(allows(['example.com'], 'http://example.com.evil.example/')).toBe(false);
    expect(allows(['example.com'], 'http://evil.example/?example.com')).toBe(false);
  });

  it('names the option and the host to add in its refusal', () => {
    const error = thrownBy(() => new NetPolicy(['127.0.0.1:1']).check('http://localhost:8080/x', HTTP), StdToolError);
    expect(error.message).toBe('http://localhost:8080 is not an allowed host (allowed: 127.0.0.1:1): allow it with --allow-net localhost:8080 on the command line, or allowNet in createStdTools');
    expect(error.code).toBe('HOST_NOT_ALLOWED');
  });

  it.each(['http://127.0.0.1', '127.0.0.1/path', 'a b', '', 'host:port', 'host:0', 'host:65536', 'user@host', '[::1'])('refuses the entry %j, naming it', (entry) => {
    const error = thrownBy(() => new NetPolicy([entry]), StdOptionError);
    expect(error.option).toBe('allowNet');
    expect(error.message).toContain(`"${entry}" is not a host or host:port`);
  });
});
