/**
 * Which of our source files one test-mode `POST /v1/plate.read` runs code in, phase by phase:
 * admission (the HTTP call until its 202), the worker and settlement (until the job is settled),
 * webhook delivery (until the receiver has the signed `job.succeeded`). Measured with V8's precise
 * coverage in this process, after a warm-up call, so module loading is not counted: a file is
 * listed when one of its functions ran during that phase.
 *
 * `npm run bench:path` (prints a JSON object; `BENCH_PATH_LIST=1` prints the files too).
 */
import { Session } from 'node:inspector/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { startRuntime } from '../local/runtime.js';
import { startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from '../local/stand-ins/object-and-queue-server.js';
import { Receiver } from '../test/support/receiver.js';

const REPO = resolve(import.meta.dirname, '..');

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((settle) => setTimeout(settle, 5));
  }
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

/** Our files that ran since the previous call (taking coverage resets the counters). */
async function filesRunSinceLastTake(): Promise<string[]> {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue;
    const path = relative(REPO, fileURLToPath(script.url));
    if (path.startsWith('..') || path.includes('node_modules') || path.startsWith('bench/') || path.startsWith('test/'))
      continue;
    if (script.functions.some((fn) => fn.ranges[0]!.count > 0 && fn.functionName !== '')) files.add(path);
  }
  return [...files].sort();
}

/**
 * Waits until none of our files has run for a while, so the tail of one phase (a webhook attempt
 * being recorded, a message deleted) is not counted in the next.
 */
async function untilQuiet(): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  const files = new Set<string>();
  for (let ran = await filesRunSinceLastTake(); ran.length > 0; ran = await filesRunSinceLastTake()) {
    for (const file of ran) files.add(file);
    if (Date.now() > deadline) throw new Error('the runtime never went quiet');
    await new Promise((settle) => setTimeout(settle, 100));
  }
  return [...files].sort();
}

const dynamodb = await startDynamoDbLocal();
const objectsAndQueues = await startObjectAndQueueServer();
const runtime = await startRuntime({
  standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
  port: 0,
  resourcePrefix: 'path',
  sweepIntervalMs: 0,
  workerPaused: true,
});
const receiver = await new Receiver().start();
try {
  const org = await createOrganization(runtime.services, { name: 'Path Org', plan: 'pro' });
  const owner = await runtime.issuer.token(org.organization.id, 'owner');
  const created = await fetch(`${runtime.baseUrl}/mgmt/v1/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, enabled_events: ['job.succeeded'] }),
  });
  if (created.status !== 201) throw new Error(`webhook endpoint: ${created.status} ${await created.text()}`);

  const call = async (i: number): Promise<string> => {
    const form = new FormData();
    form.append('image', new Blob([Buffer.alloc(2048, i)], { type: 'image/jpeg' }), `car-${i}.jpg`);
    const answer = await fetch(`${runtime.baseUrl}/v1/plate.read`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.testKey}` },
      body: form,
    });
    if (answer.status !== 202) throw new Error(`plate.read: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as { id: string }).id;
  };
  const settled = async (id: string) => (await runtime.services.jobs.get(id))?.status === 'succeeded';
  const delivered = (count: number) => receiver.requests.length >= count;

  // warm-up: every module loaded and every lazy path taken once
  runtime.worker.resume();
  const warm = await call(1);
  await until(() => settled(warm), 'the warm-up job');
  await until(() => delivered(1), 'the warm-up webhook');
  runtime.worker.pause();
  await runtime.services.background.drain();
  await untilQuiet();

  // each phase runs alone: the webhook loop waits until the worker's phase is over
  runtime.webhookLoop.pause();
  const id = await call(2);
  await runtime.services.background.drain();
  const admission = await filesRunSinceLastTake();
  runtime.worker.resume();
  await until(() => settled(id), 'the job to settle');
  const workerAndSettlement = [...new Set([...(await filesRunSinceLastTake()), ...(await untilQuiet())])].sort();
  runtime.webhookLoop.resume();
  await until(() => delivered(2), 'the webhook');
  // the attempt is recorded after the receiver has it: until the delivery loop has finished
  const delivery = await untilQuiet();

  const all = [...new Set([...admission, ...workerAndSettlement, ...delivery])].sort();
  const report = {
    admission: admission.length,
    worker_and_settlement: workerAndSettlement.length,
    webhook_delivery: delivery.length,
    distinct_files: all.length,
    ...(process.env.BENCH_PATH_LIST
      ? { files: { admission, worker_and_settlement: workerAndSettlement, webhook_delivery: delivery } }
      : {}),
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await receiver.stop();
  await runtime.stop();
  await objectsAndQueues.stop();
  await dynamodb.stop();
  session.disconnect();
}
