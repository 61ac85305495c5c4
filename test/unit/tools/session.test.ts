// Unit tests for src/tools/session.ts: the state a session's tools share (TOOLS.md §4).
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../src/values/json.js';
import { Session } from '../../../src/tools/session.js';

describe('Session identity', () => {
  it('takes the id it is given', () => {
    expect(new Session('my-session').id).toBe('my-session');
  });

  it('makes a unique id when none is given', () => {
    const a = new Session();
    const b = new Session();
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.id).not.toBe(b.id);
  });
});

describe('Session state values', () => {
  it('stores and returns JSON values of every kind', () => {
    const session = new Session();
    const values: Record<string, JsonValue> = { s: 'x', n: 1.5, b: true, z: null, l: [1, [2]], o: { a: { b: [] } } };
    for (const [key, value] of Object.entries(values)) session.setState(key, value);
    for (const [key, value] of Object.entries(values)) {
      expect(session.hasState(key)).toBe(true);
      expect(session.getStateValue(key)).toEqual(value);
    }
  });

  it('distinguishes a stored null from a missing key', () => {
    const session = new Session();
    session.setState('n', null);
    expect(session.hasState('n')).toBe(true);
    expect(session.getStateValue('n')).toBeNull();
    expect(session.hasState('missing')).toBe(false);
    expect(session.getStateValue('missing')).toBeUndefined();
  });

  it('stores a copy: changing the value that was passed in does not change the state', () => {
    const session = new Session();
    const value = { list: [1, 2], nested: { n: 1 } };
    session.setState('k', value);
    value.list.push(3);
    value.nested.n = 99;
    expect(session.getStateValue('k')).toEqual({ list: [1, 2], nested: { n: 1 } });
  });

  it('returns a copy: changing what was returned does not change the state', () => {
    const session = new Session();
    session.setState('k', { list: [1], nested: { n: 1 } });
    const got = session.getStateValue('k') as { list: number[]; nested: { n: number } };
    got.list.push(2);
    got.nested.n = 2;
    expect(session.getStateValue('k')).toEqual({ list: [1], nested: { n: 1 } });
    expect(session.getStateValue('k')).not.toBe(session.getStateValue('k'));
  });

  it('overwrites a key with setState', () => {
    const session = new Session();
    session.setState('k', 1);
    session.setState('k', 'two');
    expect(session.getStateValue('k')).toBe('two');
    expect([...session.getAllState().keys()]).toEqual(['k']);
  });

  it.each([
    ['a Date', () => new Date(0), /Date/],
    ['a Map', () => new Map(), /Map/],
    ['NaN', () => Number.NaN, /NaN/],
    ['Infinity', () => Number.POSITIVE_INFINITY, /Infinity/],
    ['a BigInt', () => 10n, /BigInt/],
    ['a function', () => () => 1, /function/],
    [
      'a cycle',
      () => {
        const o: Record<string, unknown> = {};
        o.self = o;
        return o;
      },
      /cycle/,
    ],
    ['a Date nested in a list', () => ({ when: [new Date(0)] }), /when\[0\].*Date/],
  ])('refuses %s with a TypeError and stores nothing', (_label, make, message) => {
    const session = new Session();
    const value = make() as unknown as JsonValue;
    expect(() => session.setState('k', value)).toThrow(TypeError);
    expect(() => session.setState('k', value)).toThrow(message);
    expect(() => session.setState('k', value)).toThrow(/state "k"/);
    expect(session.hasState('k')).toBe(false);
  });

  it('refuses an empty key', () => {
    expect(() => new Session().setState('', 1)).toThrow(TypeError);
  });

  it('clearState removes every value', () => {
    const session = new Session();
    session.setState('a', 1);
    session.setState('b', 2);
    session.clearState();
    expect(session.hasState('a')).toBe(false);
    expect(session.hasState('b')).toBe(false);
    expect(session.getAllState().size).toBe(0);
  });

  it('deleteState removes one value', () => {
    const session = new Session();
    session.setState('a', 1);
    session.setState('b', 2);
    expect(session.deleteState('a')).toBe(true);
    expect(session.deleteState('a')).toBe(false);
    expect([...session.getAllState().keys()]).toEqual(['b']);
  });
});

describe('getAllState', () => {
  it('returns every value in insertion order', () => {
    const session = new Session();
    session.setState('b', 1);
    session.setState('a', [2]);
    expect([...session.getAllState()]).toEqual([
      ['b', 1],
      ['a', [2]],
    ]);
  });

  it('is a copy: changing the map or its values does not change the session', () => {
    const session = new Session();
    session.setState('a', { n: [1] });
    const all = session.getAllState();
    (all.get('a') as { n: number[] }).n.push(2);
    all.set('b', 2);
    all.delete('a');
    expect(session.getStateValue('a')).toEqual({ n: [1] });
    expect(session.hasState('b')).toBe(false);
  });
});

describe('state metadata', () => {
  it('registers metadata through setState and registerStateMetadata', () => {
    const session = new Session();
    const formatter = (value: JsonValue) => `#${String(value)}`;
    session.setState('a', 1, { description: 'first' });
    session.registerStateMetadata('b', { description: 'second', formatter });
    expect(session.getStateMetadata('a')).toEqual({ description: 'first' });
    expect(session.getStateMetadata('b')?.formatter).toBe(formatter);
    expect(session.getStateMetadata('c')).toBeUndefined();
    expect([...session.getAllStateMetadata().keys()]).toEqual(['a', 'b']);
  });

  it('getAllStateMetadata is a copy of the map', () => {
    const session = new Session();
    session.registerStateMetadata('a', { description: 'x' });
    session.getAllStateMetadata().delete('a');
    expect(session.getStateMetadata('a')).toEqual({ description: 'x' });
  });

  it('refuses metadata without a description, or with a formatter that is not a function', () => {
    const session = new Session();
    expect(() => session.registerStateMetadata('a', {} as never)).toThrow(/needs a description/);
    expect(() => session.registerStateMetadata('a', { description: 'd', formatter: 'no' as never })).toThrow(/formatter must be a function/);
  });

  it('keeps metadata when the values are cleared', () => {
    const session = new Session();
    session.setState('a', 1, { description: 'first' });
    session.clearState();
    expect(session.getStateMetadata('a')).toEqual({ description: 'first' });
  });
});

describe('formatStateForPrompt', () => {
  it('writes one "key: value (description)" line per value, in insertion order', () => {
    const session = new Session();
    session.setState('user', 'Ada', { description: 'the current user' });
    session.setState('count', 3);
    session.setState('cart', { items: ['a', 'b'], total: 1.5 }, { description: 'the cart' });
    expect(session.formatStateForPrompt()).toBe(['user: Ada (the current user)', 'count: 3', 'cart: {"items":["a","b"],"total":1.5} (the cart)'].join('\n'));
  });

  it('uses a formatter when one is registered, with a copy of the value', () => {
    const session = new Session();
    session.setState('price', { cents: 450 }, {
      description: 'unit price',
      formatter: (value) => {
        const object = value as JsonObject;
        const cents = object.cents as number;
        object.cents = 0; // must not reach the stored value
        return `$${(cents / 100).toFixed(2)}`;
      },
    });
    expect(session.formatStateForPrompt()).toBe('price: $4.50 (unit price)');
    expect(session.getStateValue('price')).toEqual({ cents: 450 });
  });

  it('is empty without state', () => {
    expect(new Session().formatStateForPrompt()).toBe('');
  });
});

describe('toJSON', () => {
  it('returns the state as a plain object of copies', () => {
    const session = new Session();
    session.setState('a', [1]);
    session.setState('__proto__', 'ordinary key');
    const json = session.toJSON();
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
    expect(Object.keys(json)).toEqual(['a', '__proto__']);
    expect(json.a).toEqual([1]);
    expect(Object.getOwnPropertyDescriptor(json, '__proto__')?.value).toBe('ordinary key');
    (json.a as number[]).push(2);
    expect(session.getStateValue('a')).toEqual([1]);
    expect(JSON.stringify(session)).toBe('{"a":[1],"__proto__":"ordinary key"}');
  });
});

describe('a session of many values', () => {
  // Up to eight values are kept in an array, more in a Map: the two must behave the same.
  it('keeps insertion order, overwrites in place and deletes, below and past eight values', () => {
    for (const count of [3, 8, 9, 20]) {
      const session = new Session();
      for (let n = 0; n < count; n++) session.setState(`k${n}`, n);
      session.setState('k1', 'again'); // overwritten where it was
      expect(session.deleteState('k0')).toBe(true);
      expect(session.deleteState('missing')).toBe(false);
      const keys = Array.from({ length: count - 1 }, (_, n) => `k${n + 1}`);
      expect([...session.getAllState().keys()]).toEqual(keys);
      expect(Object.keys(session.toJSON())).toEqual(keys);
      expect(session.getStateValue('k1')).toBe('again');
      expect(session.hasState('k0')).toBe(false);
      expect(session.hasState(`k${count - 1}`)).toBe(true);
      session.setState('k0', null); // added again, last; a stored null is a value
      expect([...session.getAllState().keys()].at(-1)).toBe('k0');
      expect(session.hasState('k0')).toBe(true);
      session.clearState();
      expect(session.getAllState().size).toBe(0);
      session.setState('after', 1);
      expect([...session.getAllState()]).toEqual([['after', 1]]);
    }
  });
});
