// "Did you mean ...?": the closest known names to a misspelt one.
import { distance } from '#fastest-levenshtein';

/** Up to `limit` candidates close enough to `name` to be a plausible typo, closest first. */
export function closestNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const lower = name.toLowerCase();
  const scored: Array<{ candidate: string; score: number }> = [];
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const candidateLower = candidate.toLowerCase();
    const score = candidateLower === lower ? 0 : distance(lower, candidateLower);
    const allowed = Math.max(1, Math.floor(Math.max(name.length, candidate.length) / 3));
    const contains = lower.length >= 3 && (candidateLower.includes(lower) || lower.includes(candidateLower));
    if (score <= allowed || contains) scored.push({ candidate, score: contains ? Math.min(score, allowed) : score });
  }
  scored.sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map((s) => s.candidate);
}

/** ": did you mean `a` or `b`?" or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const close = closestNames(name, candidates);
  if (close.length === 0) return '';
  const quoted = close.map((c) => `\`${c}\``);
  return `: did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`}?`;
}
