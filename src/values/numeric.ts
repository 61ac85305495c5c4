// The number syntax of LANGUAGE.md §1 read from text: shared by NUMBER() and by the lossless
// coercion of tool arguments, so both accept exactly the same strings.
const NUMERIC = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The number a numeric string denotes (optional leading minus, surrounding space allowed), or undefined. */
export function parseNumeric(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMERIC.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}
