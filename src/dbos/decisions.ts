// Decisions that a workflow waits for (an approval, an answer), sent from any process.
//
// Inside a workflow, `waitForDecision` waits in DBOS.recv on a topic made from the call's id; the
// wait is durable (a worker that dies while waiting is replaced by one that waits on, with the same
// deadline). Any process sends with `sendDecision`: a launched DBOS, or a DBOSClient in a process
// that never launches DBOS. The decision travels in an envelope, because DBOS.recv answers `null`
// on a timeout and a decision may itself be null or false.
import { DBOS, type DBOSClient } from '@dbos-inc/dbos-sdk';

/** The DBOS topic on which the decision for call `callId` travels. */
export function decisionTopic(callId: string): string {
  return `nuwa.decision:${callId}`;
}

interface Envelope<T> {
  decision: T;
}

/** In a workflow: the decision for `callId`, or `{ timedOut: true }` when none came within `timeoutMs`. */
export async function waitForDecision<T>(callId: string, timeoutMs: number): Promise<{ decision: T } | { timedOut: true }> {
  const message = await DBOS.recv<Envelope<T>>(decisionTopic(callId), { timeoutSeconds: timeoutMs / 1000 });
  return message === null ? { timedOut: true } : { decision: message.decision };
}

/**
 * Sends the decision for call `callId` of workflow `workflowId` (DBOS.send, or DBOSClient.send).
 * The first decision for a call is the one the workflow receives: a second send for the same call
 * has the same idempotency key and is dropped while the first waits, and is never read once the
 * first was received. A decision sent before the workflow reaches its wait is kept until it does.
 * Rejects (DBOSNonExistentWorkflowError) when there is no workflow `workflowId`.
 */
export async function sendDecision<T>(sender: typeof DBOS | DBOSClient, workflowId: string, callId: string, decision: T): Promise<void> {
  const envelope: Envelope<T> = { decision };
  await sender.send(workflowId, envelope, decisionTopic(callId), `${workflowId}/${callId}`);
}
