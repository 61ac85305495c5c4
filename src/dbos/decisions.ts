// Decisions that a workflow waits for (an approval, an answer), sent from any process.
//
// Inside a workflow, `waitForDecision` waits in DBOS.recv on a topic made from the call's id; the
// wait is durable (a worker that dies while waiting is replaced by one that waits on, with the same
// deadline). Any process sends with `sendDecision`: a launched DBOS, or a DBOSClient in a process
// that never launches DBOS. The decision travels in an envelope, because DBOS.recv answers `null`
// on a timeout and a decision may itself be null or false.
//
// One call may wait more than once in a run (approved, then started by a worker that died during
// it: a person decides again whether to make it again), so each wait of a call has its own topic,
// numbered from 0. DBOS keeps a received message (marked consumed), and drops a second message
// with the same idempotency key: a topic per wait lets the later wait receive a decision of its own.
import { DBOS, type DBOSClient } from '@dbos-inc/dbos-sdk';

/** The DBOS topic on which the decision for call `callId` travels (its `wait`th wait, from 0). */
export function decisionTopic(callId: string, wait = 0): string {
  return wait === 0 ? `nuwa.decision:${callId}` : `nuwa.decision:${callId}#${wait}`;
}

interface Envelope<T> {
  decision: T;
}

/** In a workflow: the decision for `callId`, or `{ timedOut: true }` when none came within `timeoutMs`. */
export async function waitForDecision<T>(callId: string, timeoutMs: number, wait = 0): Promise<{ decision: T } | { timedOut: true }> {
  const message = await DBOS.recv<Envelope<T>>(decisionTopic(callId, wait), { timeoutSeconds: timeoutMs / 1000 });
  return message === null ? { timedOut: true } : { decision: message.decision };
}

/**
 * Sends the decision for call `callId` of workflow `workflowId` (DBOS.send, or DBOSClient.send).
 * The first decision for a wait is the one the workflow receives: a second send for the same wait
 * has the same idempotency key and is dropped while the first waits, and is never read once the
 * first was received. A decision sent before the workflow reaches its wait is kept until it does.
 * Rejects (DBOSNonExistentWorkflowError) when there is no workflow `workflowId`.
 */
export async function sendDecision<T>(sender: typeof DBOS | DBOSClient, workflowId: string, callId: string, decision: T, wait = 0): Promise<void> {
  const envelope: Envelope<T> = { decision };
  const topic = decisionTopic(callId, wait);
  await sender.send(workflowId, envelope, topic, `${workflowId}/${topic}`);
}
