// The script in the playground's URL fragment (src/playground/page/fragment.ts): any text comes back
// as it went in, and a fragment that holds no script, or a damaged one, gives none.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fragmentFor, scriptFrom } from '../../../src/playground/page/fragment.js';

describe('the script in the URL fragment', () => {
  it('gives back any text exactly, in characters a URL keeps as they are', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const fragment = fragmentFor(text);
        expect(fragment).toMatch(/^#code=[A-Za-z0-9_-]*$/);
        expect(scriptFrom(fragment)).toBe(text);
      }),
    );
    const long = 'PRINT("é✓")\n'.repeat(20_000);
    expect(scriptFrom(fragmentFor(long))).toBe(long);
  });

  it('gives nothing for a fragment without a script, or one that is not base64url of UTF-8 text', () => {
    expect(scriptFrom('')).toBeUndefined();
    expect(scriptFrom('#section')).toBeUndefined();
    expect(scriptFrom('#code=%%%')).toBeUndefined();
    expect(scriptFrom('#code=_w')).toBeUndefined(); // the byte 0xFF: not UTF-8
  });
});
