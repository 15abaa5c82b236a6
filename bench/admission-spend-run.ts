import '../local/quiet-warnings.js';
import { startRuntime } from '../local/runtime.js';
import { startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from '../local/stand-ins/object-and-queue-server.js';
import { measureSpendLimitAdmission } from './admission.js';
import { tapClient } from './call-counter.js';

/**
 * `npm run bench:spend-limit`: admission p50 for a key with a spend limit beside one without, on the
 * local runtime (DynamoDB Local), with the AWS calls and transaction items of each (docs/benchmarks.md).
 */
const calls = Number(process.env.BENCH_CALLS ?? 600);
const dynamodb = await startDynamoDbLocal();
const objectsAndQueues = await startObjectAndQueueServer();
const runtime = await startRuntime({
  port: 0,
  standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
  sweepIntervalMs: 0,
  instrumentClient: tapClient,
});
try {
  const report = await measureSpendLimitAdmission(runtime, calls, 8);
  const line = (label: string, s: { p50Ms: number; p99Ms: number; perSecond: number }) =>
    console.log(`${label.padEnd(28)} p50 ${s.p50Ms} ms · p99 ${s.p99Ms} ms · ${s.perSecond}/s`);
  console.log(`## Admission with and without a spend limit (${calls} test-mode plate.read calls each, concurrency 8, alternating rounds, worker paused)`);
  line('key without a spend limit', report.withoutLimit);
  line('key with a spend limit', report.withLimit);
  console.log('AWS calls per admitted job, without a limit:', report.callsWithoutLimit);
  console.log('AWS calls per admitted job, with a limit:   ', report.callsWithLimit);
  console.log('items per admission transaction:', report.transactionItems);
} finally {
  await runtime.stop();
  await objectsAndQueues.stop();
  await dynamodb.stop();
}
