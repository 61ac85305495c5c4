// `nuwa-script/dbos`: Nuwa runs as DBOS Transact workflows on worker processes that share a queue
// (DURABLE.md §6). Never imported by the main entry: it loads `@dbos-inc/dbos-sdk` and `pg`, optional
// peer dependencies that a host installs when it uses this entry.
export { nuwaDbos } from './nuwa.js';
export type { NuwaDbos, NuwaDbosOptions, EnqueueOptions, DbosRunSummary } from './nuwa.js';
export type { DbosRunOutcome, DbosRunStatus } from './outcome.js';
export { enableTakeover, workerExecutorId, DEFAULT_HEARTBEAT_MS, DEFAULT_TAKEOVER_AFTER_MS } from './takeover.js';
export type { TakeoverOptions, TakeoverEvent } from './takeover.js';
export { decisionTopic, waitForDecision, sendDecision } from './decisions.js';
