import { describe, expect, it } from 'vitest';
import { confirmFromHints, errorText, hintsFromConfirm, resultValue, toIdentifier } from '../../../src/providers/mcp-mapping.js';

describe('MCP names', () => {
  it('turns every other character into _', () => {
    expect(toIdentifier('get-weather')).toBe('get_weather');
    expect(toIdentifier('secure-filesystem-server')).toBe('secure_filesystem_server');
    expect(toIdentifier('a.b c/d')).toBe('a_b_c_d');
    expect(toIdentifier('read_file')).toBe('read_file');
  });

  it('makes names that start with a digit, empty names and keywords callable', () => {
    expect(toIdentifier('3d-render')).toBe('_3d_render');
    expect(toIdentifier('')).toBe('_');
    expect(toIdentifier('IF')).toBe('IF_');
    expect(toIdentifier('null')).toBe('null_');
  });
});

describe('MCP annotations and risk levels', () => {
  it('maps destructiveHint, readOnlyHint, and otherwise the fallback (write)', () => {
    expect(confirmFromHints({ destructiveHint: true })).toBe('destructive');
    expect(confirmFromHints({ readOnlyHint: true })).toBe('read');
    expect(confirmFromHints({ readOnlyHint: false })).toBe('write');
    expect(confirmFromHints(undefined)).toBe('write');
    expect(confirmFromHints({}, 'none')).toBe('none');
    // contradictory hints: the more dangerous word wins
    expect(confirmFromHints({ readOnlyHint: true, destructiveHint: true })).toBe('destructive');
  });

  it('maps risk levels back for the tools Nuwa serves', () => {
    expect(hintsFromConfirm('none')).toEqual({ readOnlyHint: true, destructiveHint: false });
    expect(hintsFromConfirm('read')).toEqual({ readOnlyHint: true, destructiveHint: false });
    expect(hintsFromConfirm('write')).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(hintsFromConfirm('destructive')).toEqual({ readOnlyHint: false, destructiveHint: true });
  });
});

describe('MCP results', () => {
  it('prefers structuredContent', () => {
    expect(resultValue({ content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } })).toEqual({ sum: 5 });
  });

  it('parses the text of a single text item when it is JSON', () => {
    expect(resultValue({ content: [{ type: 'text', text: '{"a":[1,2]}' }] })).toEqual({ a: [1, 2] });
    expect(resultValue({ content: [{ type: 'text', text: ' 42 ' }] })).toBe(42);
    expect(resultValue({ content: [{ type: 'text', text: 'true' }] })).toBe(true);
    expect(resultValue({ content: [{ type: 'text', text: '"quoted"' }] })).toBe('quoted');
  });

  it('keeps text that is not JSON as text', () => {
    expect(resultValue({ content: [{ type: 'text', text: 'hello' }] })).toBe('hello');
    expect(resultValue({ content: [{ type: 'text', text: '{not json' }] })).toBe('{not json');
    expect(resultValue({ content: [{ type: 'text', text: '3 apples' }] })).toBe('3 apples');
  });

  it('gives the list of content items otherwise', () => {
    const content = [
      { type: 'text', text: 'a' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    ];
    expect(resultValue({ content })).toEqual(content);
    expect(resultValue({ content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] })).toEqual([{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]);
    expect(resultValue({ content: [] })).toEqual([]);
  });

  it('takes the text of an error result as its message', () => {
    expect(errorText({ content: [{ type: 'text', text: 'disk full' }], isError: true })).toBe('disk full');
    expect(errorText({ content: [], isError: true })).toMatch(/without a message/);
  });
});
