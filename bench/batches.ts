import '../local/quiet-warnings.js';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { limitFor } from '../lambdas/domain/access/rate-limits.js';
import { depositCredits } from '../lambdas/domain/money/credits.js';
import { startBenchRuntime } from './bench-runtime.js';

/**
 * `npm run bench:batches`: lines admitted per second for a 10,000-line test-mode batch on the
 * local runtime (BENCH_BATCH_LINES to change the size), from the `202` of `POST /v1/batches` to the
 * last line recorded, and to the batch completed (output file written). The organisation is on
 * the enterprise plan: its inference rate limit (per endpoint, per minute) paces every batch, so
 * the figure is the lower of the driver's speed and that limit (docs/batches.md).
 */
async function main(): Promise<void> {
  const lines = Number(process.env.BENCH_BATCH_LINES ?? 10_000);
  const { runtime, stop } = await startBenchRuntime({ sweepIntervalMs: 1000 });
  try {
    const { services, baseUrl } = runtime;
    const org = await createOrganization(services, { name: 'Bench Batches', plan: 'enterprise' });
    await depositCredits(services, org.organization.id, false, lines * 100, 'bench');
    const body = Buffer.from(
      Array.from(
        { length: lines },
        (_, n) =>
          `${JSON.stringify({ custom_id: `r${n}`, params: { vin: `WVWZZZ1KZ${String(n).padStart(8, '0')}` } })}\n`,
      ).join(''),
    );
    const headers = { Authorization: `Bearer ${org.testKey}`, 'Content-Type': 'application/json' };
    const upload = (await (
      await fetch(`${baseUrl}/v1/uploads`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content_type: 'application/jsonl', size_bytes: body.length }),
      })
    ).json()) as {
      url: string;
      upload_ref: string;
    };
    await fetch(upload.url, { method: 'PUT', headers: { 'Content-Type': 'application/jsonl' }, body });
    const t0 = performance.now();
    const created = (await (
      await fetch(`${baseUrl}/v1/batches`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ endpoint: 'pricing.vehicle', input_file: upload.upload_ref }),
      })
    ).json()) as { id: string };
    let admittedMs = 0;
    let reported = 0;
    for (;;) {
      const batch = await services.batches.get(created.id);
      if (batch && performance.now() - reported > 10_000) {
        reported = performance.now();
        console.log(
          `${((reported - t0) / 1000).toFixed(0)} s: ${batch.cursor} lines recorded, ${batch.succeeded} succeeded, ${batch.failed} failed`,
        );
      }
      if (!admittedMs && batch && batch.cursor >= batch.total) admittedMs = performance.now() - t0;
      if (batch && ['succeeded', 'failed', 'canceled'].includes(batch.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const completedMs = performance.now() - t0;
    const perSecond = (ms: number) => Math.round((lines / ms) * 1000);
    console.log(
      `## Batch of ${lines} test-mode pricing.vehicle lines (local runtime, enterprise plan: ${limitFor('enterprise', 'pricing.vehicle')} calls a minute per endpoint)`,
    );
    console.log(`every line admitted: ${(admittedMs / 1000).toFixed(1)} s, ${perSecond(admittedMs)} lines/s`);
    console.log(
      `batch completed (every job settled, output file written): ${(completedMs / 1000).toFixed(1)} s, ${perSecond(completedMs)} lines/s`,
    );
  } finally {
    await stop();
  }
}

await main();
