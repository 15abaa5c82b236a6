import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { presentJob } from '../lambdas/domain/jobs/job-view.js';
import { timeOrderedId } from '../lambdas/domain/kernel/ids.js';
import { depositCredits } from '../lambdas/domain/money/credits.js';
import type { WriteOp } from '../lambdas/domain/ports/transactions.js';
import { createWebhookEndpoint } from '../lambdas/domain/webhooks/endpoints.js';
import type { Runtime } from '../local/runtime.js';
import { Receiver } from '../test/support/receiver.js';
import { percentile } from './stats.js';

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('webhook bench timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface WebhookFigures {
  jobs: number;
  p50Ms: number;
  p99Ms: number;
  deliveries: number;
  deliveriesPerSecond: number;
}

/**
 * Settle-to-delivered latency: from the commit of the settlement transaction that wrote the event
 * (timed by wrapping the unit of work) to the receiver reading the request, for `jobs` test-mode
 * plate.read jobs. Then the throughput of the one local delivery loop: `deliveries` events
 * committed at once, timed until the receiver has them all.
 */
export async function measureWebhooks(runtime: Runtime, jobs: number, deliveries: number): Promise<WebhookFigures> {
  const services = runtime.services;
  const receiver = await new Receiver().start();
  const arrivals = new Map<string, number>();
  const original = receiver.requests.push.bind(receiver.requests);
  receiver.requests.push = (...items) => {
    for (const item of items) arrivals.set(String(item.headers['svc-event-id']), performance.now());
    return original(...items);
  };
  const org = await createOrganization(services, { name: 'Webhook bench', plan: 'enterprise' });
  await depositCredits(services, org.organization.id, false, 10_000_000, 'bench');
  await createWebhookEndpoint(services, org.organization.id, {
    url: receiver.url,
    enabled_events: ['job.succeeded', 'job.failed'],
  });

  const committed = new Map<string, number>();
  const commit = services.uow.commit.bind(services.uow);
  services.uow.commit = async (ops: readonly WriteOp[]) => {
    await commit(ops);
    const now = performance.now();
    for (const op of ops) if (op.kind === 'createEvent') committed.set(op.record.event.id, now);
  };
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < jobs) {
          const i = next++;
          const form = new FormData();
          form.append('image', new Blob([Buffer.alloc(2048, i % 251)], { type: 'image/jpeg' }), 'car.jpg');
          const answer = await fetch(`${runtime.baseUrl}/v1/plate.read`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${org.testKey}` },
            body: form,
          });
          if (answer.status !== 202) throw new Error(`admission answered ${answer.status}`);
          await answer.arrayBuffer();
        }
      }),
    );
    await until(() => arrivals.size >= jobs, 300_000);
    const latencies = [...arrivals].filter(([id]) => committed.has(id)).map(([id, at]) => at - committed.get(id)!);
    latencies.sort((a, b) => a - b);

    // throughput: events written directly (as settlement writes them), all at once
    const sample = (await services.jobs.list({ orgId: org.organization.id, limit: 1 })).items[0]!;
    const job = await presentJob(services, sample);
    const before = arrivals.size;
    const ops: WriteOp[] = Array.from({ length: deliveries }, () => ({
      kind: 'createEvent',
      record: {
        event: {
          id: timeOrderedId('evt', Date.now()),
          object: 'event',
          type: 'job.succeeded',
          api_version: services.config.apiVersion,
          created: 0,
          data: { job, stage: null },
        },
        org_id: org.organization.id,
        job_id: sample.id,
        livemode: false,
        dispatched: false,
      },
      dispatchDueAt: 0,
    }));
    const started = performance.now();
    for (let i = 0; i < ops.length; i += 25) {
      const batch = ops.slice(i, i + 25);
      await commit(batch);
      await Promise.all(
        batch.map((op) =>
          services.webhookQueue.send({ event_id: (op as Extract<WriteOp, { kind: 'createEvent' }>).record.event.id }),
        ),
      );
    }
    await until(() => arrivals.size >= before + deliveries, 300_000);
    const seconds = (performance.now() - started) / 1000;
    return {
      jobs: latencies.length,
      p50Ms: Number(percentile(latencies, 50).toFixed(1)),
      p99Ms: Number(percentile(latencies, 99).toFixed(1)),
      deliveries,
      deliveriesPerSecond: Math.round(deliveries / seconds),
    };
  } finally {
    services.uow.commit = commit;
    await receiver.stop();
  }
}

export function formatWebhookReport(figures: WebhookFigures): string {
  return [
    `settle → delivered, ${figures.jobs} jobs: p50 ${figures.p50Ms} ms · p99 ${figures.p99Ms} ms`,
    `one delivery loop: ${figures.deliveries} deliveries at ${figures.deliveriesPerSecond}/s (fan-out, leased attempt, signed POST, recorded outcome)`,
  ].join('\n');
}
