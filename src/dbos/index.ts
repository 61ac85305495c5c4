// `nuwa-script/dbos`: the groundwork for running Nuwa runs as DBOS Transact workflows on several
// worker processes (DURABLE.md §6). Never imported by the main entry: it loads `@dbos-inc/dbos-sdk`
// and `pg`, optional peer dependencies that a host installs when it uses this entry.
export { enableTakeover, workerExecutorId, DEFAULT_HEARTBEAT_MS, DEFAULT_TAKEOVER_AFTER_MS } from './takeover.js';
export type { TakeoverOptions, TakeoverEvent } from './takeover.js';
export { decisionTopic, waitForDecision, sendDecision } from './decisions.js';
