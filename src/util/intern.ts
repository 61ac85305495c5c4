// Names the evaluator compares again and again — variables, tools, keys — are sliced out of the
// script's text, and two such slices with the same characters are different strings: comparing
// them compares their characters. The engine keeps one canonical copy of every string used as a
// property key (an internalized string), and two of those compare as one pointer. So names are
// interned once, when a script is compiled, and every lookup in a run compares pointers.

/** The engine's canonical copy of `name`. */
export function intern(name: string): string {
  return Object.keys({ [name]: 0 })[0]!;
}
