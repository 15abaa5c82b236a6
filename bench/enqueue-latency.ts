import '../local/quiet-warnings.js';
import { randomUUID } from 'node:crypto';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { startBenchRuntime } from './bench-runtime.js';
import { percentile } from './stats.js';

/**
 * `npm run bench:enqueue`: how long after its admission a job's id reaches its work queue under
 * the local runtime (`npm start`), where the table's stream and the job stream's pipe carry it as
 * they do on AWS (docs/internals/architecture.md, "One enqueue path"). Sequential `POST /v1/pricing.vehicle`
 * calls with the worker paused; each call's figure runs from its answer to its message being
 * received from the fast lane's queue (a long poll, so the receive returns as the message lands).
 */
const CALLS = Number(process.env.BENCH_ENQUEUE_CALLS ?? 200);

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

const { runtime, stop } = await startBenchRuntime({ workerPaused: true });
try {
  const { services } = runtime;
  const { testKey } = await createOrganization(services, {
    name: `enqueue-${randomUUID().slice(0, 6)}`,
    plan: 'enterprise',
    startingCredits: { live: 0, test: 10_000_000 },
  });
  const sqs = await services.clients.sqs();
  const queueUrl = services.infrastructure.fastWorkQueueUrl!;
  const answerToQueued: number[] = [];
  const callToQueued: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    const response = await fetch(`${runtime.baseUrl}/v1/pricing.vehicle`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${testKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ make: 'Volkswagen', model: 'Golf', year: 2019 }),
    });
    const { id } = (await response.json()) as { id: string };
    const answered = performance.now();
    if (response.status !== 202) throw new Error(`admission answered ${response.status}`);
    for (let found = false; !found; ) {
      const out = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 5 }),
      );
      const queued = performance.now();
      for (const message of out.Messages ?? []) {
        await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
        if ((JSON.parse(message.Body!) as { job_id: string }).job_id !== id) continue;
        found = true;
        answerToQueued.push(queued - answered);
        callToQueued.push(queued - t0);
      }
      if (performance.now() - answered > 30_000) throw new Error(`job ${id} never reached its queue`);
    }
  }
  const a = sorted(answerToQueued);
  const c = sorted(callToQueued);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(`## admission → work queue (${CALLS} sequential calls, worker paused)`);
  console.log(`answer → queued: p50 ${ms(percentile(a, 50))}, p90 ${ms(percentile(a, 90))}, max ${ms(a.at(-1)!)}`);
  console.log(`call start → queued: p50 ${ms(percentile(c, 50))}, p90 ${ms(percentile(c, 90))}`);
} finally {
  await stop();
}
