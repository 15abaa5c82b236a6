import '../local/quiet-warnings.js';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { limitFor } from '../lambdas/domain/access/rate-limits.js';
import { depositCredits } from '../lambdas/domain/money/credits.js';
import type { Runtime } from '../local/runtime.js';
import { startBenchRuntime } from './bench-runtime.js';
import { aroundCalls, type CallCounts, perJob } from './call-counter.js';

/**
 * `npm run bench:batches`: in one run on the local runtime, each on a fresh enterprise
 * organisation (its own rate-limit windows), the lines per second that single calls of
 * `POST /v1/pricing.vehicle` reach 8 at a time, then batches of 1,000 and 10,000 test-mode lines
 * (`BENCH_BATCH_SIZES`, `BENCH_SINGLE_CALLS` to change them), each run by the batch state
 * machine's Distributed Map as on AWS (the local executor, docs/internals/architecture.md): their lines
 * admitted per second (from the `202` of `POST /v1/batches` to the last line recorded) and the
 * time until every line is settled (the batch completed, output file written), and the CPU time
 * each line cost from the `202` to the end: this process's (the runtime runs in it) and DynamoDB
 * Local's (its JVM's, from /proc). The load average is printed beside the figures: on a shared
 * machine the rates are floors (docs/internals/benchmarks.md, "Batches"), the CPU per line much less so.
 * The runtime's queue loops and sends call the stand-in queue in process, as `npm start`'s do.
 */

const ENDPOINT = 'pricing.vehicle';
const SINGLE_CONCURRENCY = 8;

const vin = (n: number) => `WVWZZZ1KZ${String(n).padStart(8, '0')}`;

async function enterpriseKey(runtime: Runtime, name: string, credits: number): Promise<string> {
  const org = await createOrganization(runtime.services, { name, plan: 'enterprise' });
  await depositCredits(runtime.services, org.organization.id, false, credits, 'bench');
  return org.testKey;
}

/** Single calls, `SINGLE_CONCURRENCY` in flight: calls admitted (`202`) per second. */
async function singleCalls(runtime: Runtime, calls: number): Promise<number> {
  const key = await enterpriseKey(runtime, 'Bench Single Calls', calls * 100);
  let next = 0;
  let admitted = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: SINGLE_CONCURRENCY }, async () => {
      for (let n = next++; n < calls; n = next++) {
        const response = await fetch(`${runtime.baseUrl}/v1/${ENDPOINT}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ vin: vin(n) }),
        });
        await response.arrayBuffer();
        if (response.status === 202) admitted += 1;
        else throw new Error(`single call ${n} answered ${response.status}`);
      }
    }),
  );
  return (admitted / (performance.now() - t0)) * 1000;
}

interface BatchRun {
  lines: number;
  admittedSeconds: number;
  settledSeconds: number;
  /** CPU milliseconds per line, from the `202` to the batch completed */
  nodeCpuMsPerLine: number;
  javaCpuMsPerLine: number;
}

/** The JVM of the DynamoDB Local this process started (its child running the jar), from /proc; undefined without /proc. */
function dynamoDbLocalPid(): number | undefined {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .find((pid) => {
        try {
          const parent = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
          return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal.jar');
        } catch {
          return false;
        }
      });
  } catch {
    return undefined;
  }
}

/** CPU time of a process in ms (user + system) from /proc, 0 where there is none to read. */
function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // the fields after the command's closing parenthesis: utime and stime are the 12th and 13th
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

function nodeCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function batchRun(runtime: Runtime, dynamoDbPid: number | undefined, lines: number): Promise<BatchRun> {
  const { services, baseUrl } = runtime;
  const key = await enterpriseKey(runtime, `Bench Batch ${lines}`, lines * 100);
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const body = Buffer.from(
    Array.from(
      { length: lines },
      (_, n) => `${JSON.stringify({ custom_id: `r${n}`, params: { vin: vin(n) } })}\n`,
    ).join(''),
  );
  const upload = (await (
    await fetch(`${baseUrl}/v1/uploads`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content_type: 'application/jsonl', size_bytes: body.length }),
    })
  ).json()) as { url: string; upload_ref: string };
  await fetch(upload.url, { method: 'PUT', headers: { 'Content-Type': 'application/jsonl' }, body });
  const t0 = performance.now();
  const calls: CallCounts = {};
  // every DynamoDB call the runtime makes meanwhile, by command, and the items its transactions write
  const untap = aroundCalls((call, next) => {
    if (call.service === 'dynamodb') {
      calls[call.command] = (calls[call.command] ?? 0) + 1;
      const items = call.input.TransactItems;
      if (Array.isArray(items)) calls['TransactItems (items)'] = (calls['TransactItems (items)'] ?? 0) + items.length;
    }
    return next();
  });
  const node0 = nodeCpuMs();
  const java0 = processCpuMs(dynamoDbPid);
  const created = await fetch(`${baseUrl}/v1/batches`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ endpoint: ENDPOINT, input_file: upload.upload_ref }),
  });
  if (created.status !== 202) throw new Error(`POST /v1/batches answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  let admittedMs = 0;
  let reported = t0;
  // lines below `contiguous` are all recorded: each poll reads only the lines after them, so the
  // bench's own reads stay small beside what it measures
  let contiguous = 0;
  for (;;) {
    const batch = await services.batches.get(id);
    let recorded = contiguous;
    if (batch && contiguous < batch.total) {
      const after = await services.batches.lines(id, contiguous, batch.total);
      recorded += after.length;
      for (const line of after) if (line.line === contiguous) contiguous += 1;
    }
    if (batch && performance.now() - reported > 10_000) {
      reported = performance.now();
      console.log(
        `  ${((reported - t0) / 1000).toFixed(0)} s: ${recorded} lines recorded, ${batch.succeeded} succeeded, ${batch.failed} failed`,
      );
    }
    if (!admittedMs && batch && recorded >= batch.total) admittedMs = performance.now() - t0;
    if (batch && ['succeeded', 'failed', 'canceled'].includes(batch.status)) {
      if (batch.status !== 'succeeded') throw new Error(`batch ${id} ended ${batch.status}`);
      // the figure is the map's: a run that failed would have left the batch to the sweeper's driver
      const ended = performance.now() + 10_000;
      while (runtime.batchOrchestrator.describeNamed(id) === 'running' && performance.now() < ended)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const run = runtime.batchOrchestrator.describeNamed(id);
      if (run !== 'succeeded') throw new Error(`batch ${id}: its state machine run is ${run}, not succeeded`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  untap();
  console.log(`  DynamoDB calls per line: ${JSON.stringify(perJob(calls, lines))}`);
  return {
    lines,
    admittedSeconds: admittedMs / 1000,
    settledSeconds: (performance.now() - t0) / 1000,
    nodeCpuMsPerLine: (nodeCpuMs() - node0) / lines,
    javaCpuMsPerLine: (processCpuMs(dynamoDbPid) - java0) / lines,
  };
}

const cpuPerLine = (run: BatchRun) =>
  `${run.nodeCpuMsPerLine.toFixed(2)} + ${run.javaCpuMsPerLine.toFixed(2)} = ${(run.nodeCpuMsPerLine + run.javaCpuMsPerLine).toFixed(2)} ms`;

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(', ');

async function main(): Promise<void> {
  const sizes = (process.env.BENCH_BATCH_SIZES ?? '1000,10000').split(',').map(Number);
  const singles = Number(process.env.BENCH_SINGLE_CALLS ?? 1000);
  const { runtime, stop } = await startBenchRuntime({ inProcessQueues: true, sweepIntervalMs: 1000 });
  const dynamoDbPid = dynamoDbLocalPid();
  try {
    console.log(`load average at start: ${load()}`);
    const single = await singleCalls(runtime, singles);
    console.log(`single calls, ${SINGLE_CONCURRENCY} at a time: ${single.toFixed(1)} admitted/s (load ${load()})`);
    const runs: Array<BatchRun & { load: string }> = [];
    for (const lines of sizes) {
      const run = await batchRun(runtime, dynamoDbPid, lines);
      runs.push({ ...run, load: load() });
      console.log(
        `batch of ${lines}: admitted in ${run.admittedSeconds.toFixed(1)} s, settled in ${run.settledSeconds.toFixed(1)} s, CPU per line ${cpuPerLine(run)} (load ${load()})`,
      );
    }
    console.log(
      `\n## Batches against single calls, test-mode ${ENDPOINT}, enterprise plan (${limitFor('enterprise', ENDPOINT)} calls a minute per endpoint)\n`,
    );
    console.log(
      '| what | lines | admitted/s | × single calls | every line settled | CPU per line: Node + DynamoDB Local | load average (1, 5, 15 min) |',
    );
    console.log('|---|---|---|---|---|---|---|');
    console.log(`| single calls, ${SINGLE_CONCURRENCY} at a time | ${singles} | ${single.toFixed(1)} | 1.0 | | | |`);
    for (const run of runs) {
      const perSecond = run.lines / run.admittedSeconds;
      console.log(
        `| batch, Distributed Map | ${run.lines} | ${perSecond.toFixed(1)} | ${(perSecond / single).toFixed(1)} | ${run.settledSeconds.toFixed(1)} s | ${cpuPerLine(run)} | ${run.load} |`,
      );
    }
  } finally {
    await stop();
  }
}

await main();
