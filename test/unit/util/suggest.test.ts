// Unit tests for src/util/suggest.ts: the "did you mean" candidates.
import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean } from '../../../src/util/suggest.js';

describe('closestNames', () => {
  it('finds a one-letter typo', () => {
    expect(closestNames('get_prise', ['get_price', 'list_orders', 'x'])).toEqual(['get_price']);
    expect(closestNames('totl', ['total', 'count'])).toEqual(['total']);
  });

  it('ranks the closest first', () => {
    expect(closestNames('get_prise', ['set_price', 'get_price'])).toEqual(['get_price', 'set_price']);
  });

  it('finds names differing only in case, ahead of everything else', () => {
    expect(closestNames('Price', ['prices', 'price'])).toEqual(['price', 'prices']);
    expect(closestNames('len', ['LEN', 'KEYS'])).toEqual(['LEN']);
  });

  it('never suggests the name itself', () => {
    expect(closestNames('price', ['price'])).toEqual([]);
  });

  it('finds names that contain the name or are contained in it', () => {
    expect(closestNames('price', ['unit_price_in_euros'])).toEqual(['unit_price_in_euros']);
    expect(closestNames('customer_name_full', ['name'])).toEqual(['name']);
  });

  it('does not use containment for names shorter than three letters', () => {
    expect(closestNames('id', ['identifier_of_order'])).toEqual([]);
  });

  it('returns nothing when nothing is close', () => {
    expect(closestNames('xyz', ['alpha', 'beta'])).toEqual([]);
    expect(closestNames('anything', [])).toEqual([]);
  });

  it('returns at most three by default, and honours a limit', () => {
    const candidates = ['item1', 'item2', 'item3', 'item4', 'item5'];
    expect(closestNames('item', candidates)).toEqual(['item1', 'item2', 'item3']);
    expect(closestNames('item', candidates, 1)).toEqual(['item1']);
    expect(closestNames('item', candidates, 5)).toHaveLength(5);
  });

  it('accepts any iterable', () => {
    expect(closestNames('totl', new Set(['total']).values())).toEqual(['total']);
    expect(closestNames('a_b', new Map([['a_c', 1]]).keys())).toEqual(['a_c']);
  });
});

describe('didYouMean', () => {
  it('words one, two and three suggestions', () => {
    expect(didYouMean('totl', ['total'])).toBe(': did you mean `total`?');
    expect(didYouMean('get_prise', ['get_price', 'set_price'])).toBe(': did you mean `get_price` or `set_price`?');
    expect(didYouMean('item', ['item1', 'item2', 'item3', 'item4'])).toBe(': did you mean `item1`, `item2` or `item3`?');
  });

  it('is the empty string when nothing is close', () => {
    expect(didYouMean('xyz', ['alpha', 'beta'])).toBe('');
    expect(didYouMean('x', [])).toBe('');
  });
});
