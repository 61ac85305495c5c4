// An approvals inbox for Nuwa runs on DBOS (docs/postgres.md): start a run, list the runs and what
// they wait for, approve, deny or answer from any terminal of any machine that reaches the database.
// It never launches DBOS: it only reaches the runs through the database.
//   NUWA_DBOS_URL=postgres://user@host:5432/nuwa_dbos node examples/dbos/inbox.mjs
//
//   inbox.mjs                              the runs, newest first, and what each waits for
//   inbox.mjs start FILE [RUN-ID]          put a run of the script FILE on the queue
//   inbox.mjs approve|deny RUN-ID          decide every approval the run waits for; then wait and show it
//   inbox.mjs answer RUN-ID CALL-ID TEXT   answer a tool's question
import { readFileSync } from 'node:fs';
import { nuwaDbos } from 'nuwa-script/dbos';

const systemDatabaseUrl = process.env.NUWA_DBOS_URL;
if (!systemDatabaseUrl) {
  console.error('set NUWA_DBOS_URL to the DBOS system database, e.g. postgres://postgres@127.0.0.1:5432/nuwa_dbos');
  process.exit(2);
}
// No createInterpreter: this process starts and decides runs, and runs none.
const nuwa = nuwaDbos({ queue: { name: 'nuwa-example' }, systemDatabaseUrl, application: 'nuwa-example' });

/** One line per run: its id, its status, and what it waits for or how it ended. */
function describe(run) {
  const head = `${run.runId}  ${run.status.padEnd(9)}`;
  switch (run.status) {
    case 'paused':
      return run.pending.map((call) => `${head}  on ${run.worker}, waits at ${call.callId}: ${call.kind === 'approval' ? `${call.uncertain ? 'whether to make again' : 'approval of'} ${call.toolName} ${JSON.stringify(call.args)}` : `an answer to ${JSON.stringify(call.question)}`}`).join('\n');
    case 'completed':
      return `${head}  on ${run.worker}: ${run.result.output.join(' / ')}`;
    case 'failed':
      return `${head}  ${run.error.kind} at ${run.error.line}:${run.error.column}: ${run.error.message}`;
    default:
      return head;
  }
}

/** Waits until the run no longer waits at `callIds`: it ended, or waits somewhere else. */
async function next(runId, callIds) {
  for (;;) {
    const run = await nuwa.status(runId);
    if (run.status === 'completed' || run.status === 'failed') return run;
    if (run.status === 'paused' && !run.pending.some((call) => callIds.includes(call.callId))) return run;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const [command, ...args] = process.argv.slice(2);
try {
  if (command === undefined) {
    for (const run of await nuwa.list()) console.log(describe(run));
  } else if (command === 'start') {
    const [file, runId] = args;
    const started = await nuwa.enqueue(readFileSync(file, 'utf8'), { fileName: file, ...(runId && { runId }) });
    console.log(`queued ${started}`);
  } else if (command === 'approve' || command === 'deny') {
    const [runId] = args;
    const run = await nuwa.status(runId);
    const calls = run?.status === 'paused' ? run.pending.filter((call) => call.kind === 'approval').map((call) => call.callId) : [];
    if (calls.length === 0) throw new Error(`run ${runId} waits for no approval (${run?.status ?? 'no such run'})`);
    for (const callId of calls) await nuwa.decide(runId, callId, command === 'approve');
    console.log(describe(await next(runId, calls)));
  } else if (command === 'answer') {
    const [runId, callId, text] = args;
    await nuwa.decide(runId, callId, { answer: text });
    console.log(describe(await next(runId, [callId])));
  } else {
    throw new Error(`unknown command ${command} (start, approve, deny, answer, or none to list)`);
  }
} catch (error) {
  console.error(`inbox: ${error.message}`);
  process.exitCode = 1;
} finally {
  await nuwa.close();
}
