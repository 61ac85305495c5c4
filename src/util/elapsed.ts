// Durations as the project reports them (run stats, tool events, traces, `--json`, durable run
// records): milliseconds to a tenth. performance.now() gives far more digits than mean anything
// for a run or a call (`4.2`, not `4.199583999999959`); one precision, decided here, keeps every
// report of a duration alike.
export function elapsedMs(since: number): number {
  return Math.round((performance.now() - since) * 10) / 10;
}
