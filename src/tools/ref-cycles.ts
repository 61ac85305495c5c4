// A JSON Schema may refer to itself: `{ $ref: '#/$defs/node' }` where a node's children are nodes
// is a tree of any depth, and fine, because each step of the recursion goes one level down into the
// data, which is finite. A reference that comes back to where it started without going down
// (`a: { $ref: '#/properties/a' }`, or `b → c → b` through `$defs`, or `allOf: [{ $ref: '#' }]`)
// never ends: Ajv recurses until the stack overflows, while compiling or on every call. Such a
// schema is found here, before Ajv sees it, and named by where the cycle is.
import type { JsonSchema } from './types.js';

/** Keywords whose schema applies to the same value as the schema holding them. */
const SAME_VALUE_ONE = ['not', 'if', 'then', 'else'];
const SAME_VALUE_LIST = ['allOf', 'anyOf', 'oneOf'];
const SAME_VALUE_MAP = ['dependentSchemas', 'dependencies'];
const REFERENCES = ['$ref', '$dynamicRef', '$recursiveRef'];
/** Keywords whose schemas apply to a part of the value (one level down): recursion through them ends. */
const PART_ONE = ['items', 'additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const PART_LIST = ['items', 'prefixItems'];
const PART_MAP = ['properties', 'patternProperties'];
/** Where schemas are kept to be referred to. */
const DEFINITIONS = ['$defs', 'definitions'];

type SchemaNode = object;

/**
 * The place (a JSON pointer such as `#/properties/a`) of a reference cycle that never goes down
 * into the value, or undefined when there is none. Only references within the schema (`#...`) are
 * followed; a schema with nested `$id`s (other resources) is left to Ajv.
 */
export function findRefCycle(schema: JsonSchema): string | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const pointers = new Map<SchemaNode, string>();
  const sameValue = new Map<SchemaNode, SchemaNode[]>();
  let otherResources = false;

  // Every schema position, with its pointer (an explicit stack: schemas may nest deeply).
  const pending: Array<[unknown, string]> = [[schema, '#']];
  while (pending.length > 0) {
    const [node, pointer] = pending.pop()!;
    if (node === null || typeof node !== 'object' || Array.isArray(node) || pointers.has(node)) continue;
    pointers.set(node, pointer);
    const record = node as Record<string, unknown>;
    if (pointer !== '#' && typeof own(record, '$id') === 'string') otherResources = true;
    const at = (...parts: Array<string | number>) => `${pointer}/${parts.map((part) => String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
    for (const keyword of [...SAME_VALUE_ONE, ...PART_ONE]) pending.push([own(record, keyword), at(keyword)]);
    for (const keyword of [...SAME_VALUE_LIST, ...PART_LIST]) {
      const list = own(record, keyword);
      if (Array.isArray(list)) list.forEach((item, i) => pending.push([item, at(keyword, i)]));
    }
    for (const keyword of [...SAME_VALUE_MAP, ...PART_MAP, ...DEFINITIONS]) {
      const map = own(record, keyword);
      if (map !== null && typeof map === 'object' && !Array.isArray(map)) for (const [name, member] of Object.entries(map)) pending.push([member, at(keyword, name)]);
    }
  }
  if (otherResources) return undefined;

  const resolve = (reference: string): SchemaNode | undefined => {
    if (!reference.startsWith('#')) return undefined;
    let target: unknown = schema;
    const fragment = safeDecode(reference.slice(1));
    if (fragment === undefined || (fragment !== '' && !fragment.startsWith('/'))) return undefined;
    if (fragment !== '') {
      for (const part of fragment.slice(1).split('/')) {
        const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
        if (target === null || typeof target !== 'object') return undefined;
        target = Array.isArray(target) ? target[Number(key)] : own(target as Record<string, unknown>, key);
      }
    }
    return target !== null && typeof target === 'object' && !Array.isArray(target) ? target : undefined;
  };

  for (const node of pointers.keys()) {
    const record = node as Record<string, unknown>;
    const next: SchemaNode[] = [];
    const add = (value: unknown) => {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) next.push(value);
    };
    for (const keyword of SAME_VALUE_ONE) add(own(record, keyword));
    for (const keyword of SAME_VALUE_LIST) {
      const list = own(record, keyword);
      if (Array.isArray(list)) list.forEach(add);
    }
    for (const keyword of SAME_VALUE_MAP) {
      const map = own(record, keyword);
      if (map !== null && typeof map === 'object' && !Array.isArray(map)) Object.values(map).forEach(add);
    }
    for (const keyword of REFERENCES) {
      const reference = own(record, keyword);
      if (typeof reference !== 'string') continue;
      const target = resolve(keyword === '$recursiveRef' ? '#' : reference);
      if (target === undefined) continue;
      if (!pointers.has(target)) pointers.set(target, reference);
      add(target);
    }
    sameValue.set(node, next);
  }

  // Depth-first search on the same-value edges; a node met again while still on the path closes a cycle.
  const state = new Map<SchemaNode, 'open' | 'done'>();
  for (const start of pointers.keys()) {
    if (state.has(start)) continue;
    const path: Array<{ node: SchemaNode; next: number }> = [{ node: start, next: 0 }];
    state.set(start, 'open');
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const edges = sameValue.get(top.node) ?? [];
      if (top.next >= edges.length) {
        state.set(top.node, 'done');
        path.pop();
        continue;
      }
      const child = edges[top.next++]!;
      const seen = state.get(child);
      if (seen === 'open') return pointers.get(child);
      if (seen === undefined) {
        state.set(child, 'open');
        path.push({ node: child, next: 0 });
      }
    }
  }
  return undefined;
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
