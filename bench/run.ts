import '../local/quiet-warnings.js';
import { formatSpendLimitReport, measureAdmission, measureSpendLimitAdmission } from './admission.js';
import { formatFloorReport, measureAdmissionFloor } from './admission-floor.js';
import { startBenchRuntime } from './bench-runtime.js';
import { formatBundleReport, measureBundles } from './bundles.js';
import { formatInspectionReport, measureInspections } from './inspections.js';
import { LocalProcess } from './local-process.js';
import { measureManagementAuth } from './management.js';
import { formatMultipartReport, measureMultipartAdmission } from './multipart.js';
import { measureRateLimitCost } from './rate-limits.js';
import { formatSdkCallReport, measureSdkCalls } from './sdk-calls.js';
import { measureUploadMemory } from './upload-memory.js';
import { formatWaitReport, measureWait } from './wait.js';
import { formatWebhookReport, measureWebhooks } from './webhooks.js';

/** `npm run bench`: prints every figure the issues ask to measure. Not a test: it asserts nothing. */
async function main(): Promise<void> {
  const calls = Number(process.env.BENCH_CALLS ?? 1000);
  // first, on a quiet machine: npm start's own process, as a user runs it
  console.log('\n## Admission beside its floor (npm start, test key, multipart PNG, concurrency 1, worker on)');
  const local = await new LocalProcess().start();
  try {
    console.log(formatFloorReport(await measureAdmissionFloor(local, Math.min(calls, 500))));
  } finally {
    await local.stop();
  }
  console.log(
    '\n## AWS SDK CPU per call on the admission path (canned answers; before: document client, no middleware cache)',
  );
  console.log(formatSdkCallReport(await measureSdkCalls()));
  const { runtime, stop } = await startBenchRuntime();
  try {
    console.log(`\n## Admission (local runtime, ${calls} test-mode plate.read calls, concurrency 8)`);
    const admission = await measureAdmission(runtime, calls, 8);
    const line = (label: string, s: { p50Ms: number; p99Ms: number; perSecond: number }) =>
      console.log(`${label.padEnd(28)} p50 ${s.p50Ms} ms · p99 ${s.p99Ms} ms · ${s.perSecond}/s`);
    line('admission, no Idempotency-Key', admission.withoutKey);
    line('admission, Idempotency-Key', admission.withKey);
    line('replay of a stored response', admission.replay);
    console.log(
      'AWS calls per admitted job (input put, 1 transaction carrying the key check and the rate-limit hit, the counter read beside it, the send after answering; the key read only on a cache miss):',
      admission.callsPerAdmittedJob,
    );
    console.log('AWS calls per settled job (worker, incl. its queue polling):', admission.callsPerSettledJob);
    console.log('\n## Admission with and without a spend limit (also `npm run bench:spend-limit`)');
    console.log(formatSpendLimitReport(await measureSpendLimitAdmission(runtime, Math.min(calls, 600), 8)));
    console.log('\n## wait=true (fast lane) and its ceiling behind slow work');
    console.log(formatWaitReport(await measureWait(runtime, Math.min(calls, 200))));
    console.log('\n## Rate-limit check (GET /v1/endpoints: authentication + rate limit only)');
    const rate = await measureRateLimitCost(runtime);
    console.log(`p50 ${rate.p50Ms} ms; DynamoDB calls per request:`, rate.callsPerRequest);
    console.log('\n## Multipart admission of a 10 MB file through the create-job route handler');
    console.log(formatMultipartReport(await measureMultipartAdmission(runtime, { runs: 5 })));
    console.log('\n## Management authentication');
    console.log(await measureManagementAuth(runtime));
    console.log(
      '\n## Webhooks (local runtime: outbox in the settlement transaction → queue → delivery loop → local receiver)',
    );
    console.log(
      formatWebhookReport(
        await measureWebhooks(runtime, Math.min(calls, 1000), Number(process.env.BENCH_DELIVERIES ?? 1000)),
      ),
    );
    const inspections = Number(process.env.BENCH_INSPECTIONS ?? 20);
    console.log('\n## Inspections (local runtime: the ASL on aws-local-stepfunctions, test-mode stage jobs)');
    console.log(formatInspectionReport(await measureInspections(runtime, inspections, 1)));
    console.log(formatInspectionReport(await measureInspections(runtime, inspections, 4)));
  } finally {
    await stop();
  }
  console.log(
    '\n## Memory of the local runtime under unauthenticated uploads (authentication on the headers, early refusal)',
  );
  console.log(await measureUploadMemory());
  console.log(
    '\n## Lambda bundles (esbuild, minified, @aws-sdk external): size and cold import beside a bare import of the DynamoDB SDK',
  );
  console.log(formatBundleReport(await measureBundles()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
