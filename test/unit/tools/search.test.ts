// Unit tests for tool search (TOOLS.md §5) on a realistic catalogue of 56 tools: keyword ranking with
// prefixes, typos and field boosts; the index following register and unregister; filters; and an
// embedder fused by reciprocal rank fusion, which finds tools through synonyms no keyword shares.
import { describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { tokenize } from '../../../src/tools/search.js';
import { CATALOGUE_SIZE, catalogueRegistry, fakeEmbedder } from '../../support/tool-catalogue.js';

async function names(registry: ToolRegistry, intent: string, options = {}): Promise<string[]> {
  return (await registry.search(intent, options)).map((result) => result.tool.name);
}

describe('keyword search on the catalogue', () => {
  const registry = catalogueRegistry();

  it('the catalogue is realistic in size', () => {
    expect(CATALOGUE_SIZE).toBeGreaterThanOrEqual(50);
    expect(registry.list()).toHaveLength(CATALOGUE_SIZE);
  });

  it.each([
    ['send an email to the team', 'send_email'],
    ['delete a file', 'delete_file'],
    ['stock price of apple', 'get_stock_price'],
    ['run a sql query', 'query_database'],
    ['list files in a folder', 'list_directory'],
    ['translate to french', 'translate_text'],
    ['draw a picture of a cat', 'generate_image'],
    ['refund', 'refund_payment'],
    ['run bash command', 'run_shell_command'],
    ['open a jira issue', 'create_ticket'],
  ])('"%s" ranks %s first', async (intent, expected) => {
    expect((await names(registry, intent))[0]).toBe(expected);
  });

  it.each([
    ['wether', 'get_weather'],
    ['calender events', 'list_calendar_events'],
    ['transalte this', 'translate_text'],
    ['git comit', 'git_commit'],
    ['sumarize text', 'summarize_text'],
    // Two adjacent letters swapped in a short word: one Damerau edit, two Levenshtein ones.
    ['emial', 'send_email'],
    ['sned an email', 'send_email'],
    ['delete a fiel', 'delete_file'],
  ])('a typo: "%s" still ranks %s first', async (intent, expected) => {
    expect((await names(registry, intent))[0]).toBe(expected);
  });

  it.each([
    ['calend', ['list_calendar_events', 'create_calendar_event', 'cancel_calendar_event']],
    ['transcr', ['transcribe_audio']],
    ['geoc', ['geocode_address']],
  ])('a prefix: "%s" finds %j', async (intent, expected) => {
    expect((await names(registry, intent)).slice(0, expected.length).sort()).toEqual([...expected].sort());
  });

  it('name and keywords weigh more than the description', async () => {
    const boosted = new ToolRegistry();
    const base = { parameters: [], returns: 'any' as const, execute: () => null };
    boosted.register({ ...base, name: 'notes', description: 'Keeps notes; can also export an invoice as a note.' });
    boosted.register({ ...base, name: 'billing', description: 'Accounts receivable.', keywords: ['invoice'] });
    boosted.register({ ...base, name: 'invoice_pdf', description: 'Renders a document.' });
    const ranked = await names(boosted, 'invoice');
    expect(ranked).toEqual(['invoice_pdf', 'billing', 'notes']);
  });

  it('scores are in 0..1, best first, the best match 1; ranks are 1-based', async () => {
    const results = await registry.search('send an email');
    expect(results[0]!.score).toBe(1);
    expect(results.map((r) => r.ftsRank)).toEqual(results.map((_, i) => i + 1));
    for (let i = 1; i < results.length; i++) expect(results[i]!.score).toBeLessThanOrEqual(results[i - 1]!.score);
    expect(results.every((r) => r.score > 0 && r.score <= 1 && r.vectorRank === undefined)).toBe(true);
  });

  it('limit (default 5), minScore, category and source', async () => {
    expect(await names(registry, 'file')).toHaveLength(5);
    expect(await names(registry, 'file', { limit: 2 })).toHaveLength(2);
    expect((await registry.search('file', { limit: 50 })).length).toBeGreaterThan(5);
    const strong = await registry.search('send an email to the team', { minScore: 0.5 });
    expect(strong.map((r) => r.tool.name)).toEqual(['send_email']);
    expect((await registry.search('list', { category: 'system' })).every((r) => r.tool.category === 'system')).toBe(true);
    expect(await names(registry, 'list', { category: 'system' })).toContain('list_processes');
    expect((await names(registry, 'git', { source: 'module' })).sort()).toEqual(['git_commit', 'git_diff']);
    expect(await names(registry, 'message', { source: 'mcp' })).toEqual(['post_slack_message']);
    expect(await names(registry, 'email', { source: 'executable' })).toEqual([]);
  });

  it('no match, or an empty intent, gives an empty list', async () => {
    expect(await registry.search('xylophone')).toEqual([]);
    expect(await registry.search('   ')).toEqual([]);
  });

  it('refuses bad options', async () => {
    await expect(registry.search('x', { limit: 0 })).rejects.toThrow(/`limit` must be a whole number of at least 1/);
    await expect(registry.search('x', { category: 'files' as never })).rejects.toThrow(/`category` must be one of/);
    await expect(registry.search('x', { source: 'cloud' as never })).rejects.toThrow(/`source` must be one of local, module, executable, mcp/);
    await expect(registry.search(42 as never)).rejects.toThrow(/intent must be a string/);
  });

  it('splits names of every style into words', () => {
    expect(tokenize('get_weather sendEmail fs.read_file HTTPServer v2')).toEqual(['get', 'weather', 'send', 'Email', 'fs', 'read', 'file', 'HTTPServer', 'v2']);
  });
});

describe('the index follows the registry', () => {
  it('finds a tool registered after the first search, and forgets an unregistered one', async () => {
    const registry = catalogueRegistry();
    expect(await names(registry, 'horoscope')).toEqual([]);
    registry.register({ name: 'daily_horoscope', description: 'Today’s horoscope for a star sign.', parameters: [], returns: 'string', execute: () => '' });
    expect(await names(registry, 'horoscope')).toEqual(['daily_horoscope']);
    registry.unregister('daily_horoscope');
    expect(await names(registry, 'horoscope')).toEqual([]);
    registry.unregister('send_email');
    expect(await names(registry, 'send an email')).not.toContain('send_email');
  });

  it('a re-registered tool is found by its new description', async () => {
    const registry = new ToolRegistry();
    const base = { name: 'lookup', parameters: [], returns: 'any' as const, execute: () => null };
    registry.register({ ...base, description: 'Finds recipes.' });
    expect(await names(registry, 'recipes')).toEqual(['lookup']);
    registry.unregister('lookup');
    registry.register({ ...base, description: 'Finds flights.' });
    expect(await names(registry, 'recipes')).toEqual([]);
    expect(await names(registry, 'flights')).toEqual(['lookup']);
  });

  it('searches started together share one index', async () => {
    const registry = catalogueRegistry();
    const [a, b] = await Promise.all([names(registry, 'weather'), names(registry, 'weather')]);
    expect(a).toEqual(b);
    expect(a[0]).toBe('get_weather');
  });
});

describe('search with an embedder (reciprocal rank fusion)', () => {
  it.each([
    ['post a letter to my landlord', 'send_email'],
    ['how many euros is 100 dollars', 'convert_currency'],
    ['will I need an umbrella tomorrow', 'get_weather'],
    ['book an appointment', 'create_calendar_event'],
    ['erase everything', 'delete_file'],
  ])('"%s" finds %s only with the embedder (no shared keyword)', async (intent, expected) => {
    expect(await names(catalogueRegistry(), intent)).not.toContain(expected);
    expect(await names(catalogueRegistry({ embedder: fakeEmbedder }), intent)).toContain(expected);
  });

  it('keeps exact keyword matches on top when the embedder agrees', async () => {
    const registry = catalogueRegistry({ embedder: fakeEmbedder });
    for (const [intent, expected] of [
      ['send an email to the team', 'send_email'],
      ['delete a file', 'delete_file'],
      ['translate to french', 'translate_text'],
    ] as const) {
      const [best] = await registry.search(intent);
      expect(best!.tool.name).toBe(expected);
      expect(best).toMatchObject({ score: 1, ftsRank: 1, vectorRank: 1 });
    }
  });

  it('fused scores: 1 is first in both rankings; a tool found by one ranking only has its rank there', async () => {
    const results = await catalogueRegistry({ embedder: fakeEmbedder }).search('how many euros is 100 dollars', { limit: 3 });
    expect(results[0]).toMatchObject({ vectorRank: 1 });
    expect(results[0]!.ftsRank).toBeUndefined();
    expect(results[0]!.score).toBeCloseTo(((1 / 61) * 61) / 2, 10);
    for (let i = 1; i < results.length; i++) expect(results[i]!.score).toBeLessThanOrEqual(results[i - 1]!.score);
  });

  it('embeds each tool once, and a newly registered tool when it is first searched', async () => {
    const embedder = vi.fn(fakeEmbedder);
    const registry = catalogueRegistry({ embedder });
    await registry.search('email');
    expect(embedder).toHaveBeenCalledTimes(CATALOGUE_SIZE + 1);
    await registry.search('weather');
    expect(embedder).toHaveBeenCalledTimes(CATALOGUE_SIZE + 2);
    registry.register({ name: 'tarot', description: 'Draws a tarot card.', parameters: [], returns: 'any', execute: () => null });
    await registry.search('card');
    expect(embedder).toHaveBeenCalledTimes(CATALOGUE_SIZE + 4);
  });

  it('filters apply to both rankings', async () => {
    const results = await catalogueRegistry({ embedder: fakeEmbedder }).search('remove', { source: 'module', limit: 10 });
    expect(results.map((r) => r.tool.name).sort()).toEqual(['git_commit', 'git_diff', 'run_tests']);
    expect(results.every((r) => r.vectorRank !== undefined && r.vectorRank <= 3)).toBe(true);
  });

  it('an embedder that fails or returns no vector rejects the search with a clear error, and is asked again later', async () => {
    let fail = true;
    const registry = catalogueRegistry({
      embedder: async (text) => {
        if (fail && text.startsWith('send email')) throw new Error('model offline');
        return fakeEmbedder(text);
      },
    });
    await expect(registry.search('email')).rejects.toThrow('search: the embedder failed on tool "send_email": model offline');
    fail = false;
    expect((await names(registry, 'email'))[0]).toBe('send_email');
    const broken = catalogueRegistry({ embedder: async () => 'vector' as never });
    await expect(broken.search('email')).rejects.toThrow(/the embedder returned a string for the query, not a vector of numbers/);
    const uneven = catalogueRegistry({ embedder: async (text) => new Float32Array(text.length % 2 === 0 ? 3 : 4).fill(1) });
    await expect(uneven.search('mail')).rejects.toThrow(/dimensions/);
  });

  it('refuses an embedder that is not a function', () => {
    expect(() => new ToolRegistry({ embedder: 'openai' as never })).toThrow(/`embedder` must be a function/);
  });
});

describe('searchKeywords: the keyword half, synchronously', () => {
  it('ranks as search does without an embedder, and returns every match unless limited', async () => {
    const registry = catalogueRegistry();
    const intent = 'send an email to the team';
    const sync = registry.searchKeywords(intent);
    expect(Array.isArray(sync)).toBe(true);
    expect(sync.length).toBeGreaterThan(5);
    expect(sync.slice(0, 5)).toEqual(await registry.search(intent));
    expect(registry.searchKeywords(intent, { limit: 2 })).toHaveLength(2);
    expect(registry.searchKeywords(intent, { category: 'llm' }).every((result) => result.tool.category === 'llm')).toBe(true);
    expect(registry.searchKeywords('   ')).toEqual([]);
    expect(() => registry.searchKeywords(7 as never)).toThrow(/intent must be a string/);
  });

  it('never asks the embedder, and follows register and unregister', () => {
    let asked = 0;
    const registry = new ToolRegistry({ embedder: async () => (asked++, new Float32Array([1])) });
    const base = { parameters: [], returns: 'any' as const, execute: () => null };
    registry.register({ ...base, name: 'send_invoice', description: 'Sends an invoice' });
    expect(registry.searchKeywords('invoice').map((result) => result.tool.name)).toEqual(['send_invoice']);
    registry.unregister('send_invoice');
    expect(registry.searchKeywords('invoice')).toEqual([]);
    expect(asked).toBe(0);
  });
});

describe('hostile intents', () => {
  it('a huge intent is cut to its first 1,000 characters, so it cannot stall the host', async () => {
    const registry = catalogueRegistry();
    const huge = `send an email ${'zzqx '.repeat(200_000)}`;
    expect((await names(registry, huge))[0]).toBe('send_email');
    const embedder = vi.fn(fakeEmbedder);
    await catalogueRegistry({ embedder }).search(huge);
    expect(embedder.mock.calls.every(([text]) => text.length <= 1000)).toBe(true);
  });
});
