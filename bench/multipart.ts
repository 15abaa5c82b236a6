import { createHook } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { randomId } from '../lambdas/domain/kernel/ids.js';
import { depositCredits } from '../lambdas/domain/money/credits.js';
import type { ObjectStore, StoredObject } from '../lambdas/domain/ports/jobs.js';
import type { Services } from '../lambdas/domain/ports/services.js';
import { handler as createJob } from '../lambdas/http/routes/inference/create-job.js';
import { type Runtime, startRuntime } from '../local/runtime.js';
import { startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from '../local/stand-ins/object-and-queue-server.js';

/**
 * Multipart admission of one large file through the create-job route handler, invoked
 * in-process with the API Gateway event it would receive on AWS (base64 body). It reports
 * the handler's time and the memory it adds on top of the event it was handed: the peak of
 * `heapUsed + external` (Buffers live in `external`/`arrayBuffers`) above a post-GC
 * baseline, sampled around every asynchronous callback the handler runs, so no await
 * boundary is missed.
 *
 * Object writes go to a store that hashes and discards the bytes: the local S3 stand-in runs
 * in this process and would otherwise add its own copy of every file to the figures.
 */

export interface MultipartBenchReport {
  endpoint: string;
  fileBytes: number;
  /** size of the base64 event body the handler is given */
  eventBodyBytes: number;
  runs: number;
  p50Ms: number;
  maxMs: number;
  /** peak of heapUsed + external above the baseline, in bytes (median over the memory runs) */
  peakAddedBytes: number;
  /** of which external: Buffers and ArrayBuffers, where copies of the body live */
  peakAddedExternalBytes: number;
  /** the same two peaks for a 1 KB file: the handler's fixed cost (SDK calls, parsing, garbage) */
  overheadBytes: number;
  overheadExternalBytes: number;
  /** (peakAddedExternalBytes - overheadExternalBytes) / fileBytes: file-sized buffers held at once */
  fileCopiesAtPeak: number;
}

type Gc = () => void;

/** `global.gc` when the process was started with --expose-gc, else the same function obtained at run time. */
function garbageCollector(): Gc {
  const exposed = (globalThis as { gc?: Gc }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Gc;
}

/**
 * Two full collections a tick apart: the first frees ArrayBuffers at once, but large strings
 * Node made external (such as a base64 body) are only released by the next one.
 */
async function settleMemory(gc: Gc): Promise<void> {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

/** Keeps object metadata only; the bytes are hashed (as S3 would checksum them) and dropped. */
class DiscardingObjectStore implements ObjectStore {
  private readonly stored = new Map<string, StoredObject>();
  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const etag = createHash('md5').update(body).digest('hex');
    this.stored.set(key, { contentType, sizeBytes: body.byteLength, etag });
  }
  async copy(fromKey: string, toKey: string): Promise<void> {
    const source = this.stored.get(fromKey);
    if (source) this.stored.set(toKey, source);
  }
  async head(key: string): Promise<StoredObject | null> {
    return this.stored.get(key) ?? null;
  }
  async get(): Promise<Uint8Array | null> {
    return null;
  }
  async getRange(): Promise<Uint8Array | null> {
    return null;
  }
  async sha256(): Promise<string | null> {
    return null;
  }
  async signedGetUrl(key: string): Promise<string> {
    return `https://bench.invalid/${key}`;
  }
  async signedPutUrl(key: string): Promise<string> {
    return `https://bench.invalid/${key}`;
  }
}

function multipartBody(boundary: string, fileBytes: number): Buffer {
  const file = randomBytes(fileBytes);
  file[0] = 0xff;
  file[1] = 0xd8;
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="car.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="country"\r\n\r\nDE\r\n--${boundary}--\r\n`),
  ]);
}

/** The REST (v1) proxy event API Gateway sends for a binary body: the body travels base64-encoded. */
function proxyEvent(key: string, fileBytes: number): APIGatewayProxyEvent {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` };
  return {
    resource: '/v1/plate.read',
    path: '/v1/plate.read',
    httpMethod: 'POST',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: {
      requestId: randomId('req'),
      httpMethod: 'POST',
      path: '/v1/plate.read',
      stage: 'bench',
      resourcePath: '/v1/plate.read',
    } as APIGatewayProxyEvent['requestContext'],
    body: multipartBody(boundary, fileBytes).toString('base64'),
    isBase64Encoded: true,
  };
}

function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'create-job-plate-read',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:create-job-plate-read',
    memoryLimitInMB: '512',
    awsRequestId: randomId('req'),
    logGroupName: '/aws/lambda/create-job-plate-read',
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function usedBytes(): { total: number; external: number } {
  const usage = process.memoryUsage();
  return { total: usage.heapUsed + usage.external, external: usage.external };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

type Invoke = (event: APIGatewayProxyEvent) => Promise<void>;

/** Median over `runs` admissions of the peak memory each adds above a post-GC baseline. */
async function peakMemory(
  invoke: Invoke,
  gc: Gc,
  event: () => APIGatewayProxyEvent,
  runs: number,
): Promise<{ total: number; external: number }> {
  const totals: number[] = [];
  const externals: number[] = [];
  for (let i = 0; i < runs; i++) {
    const request = event();
    await settleMemory(gc);
    const baseline = usedBytes();
    let peak = baseline;
    const sample = () => {
      const now = usedBytes();
      if (now.total > peak.total) peak = now;
    };
    const hook = createHook({ before: sample, after: sample });
    const timer = setInterval(sample, 1);
    hook.enable();
    try {
      await invoke(request);
      sample();
    } finally {
      hook.disable();
      clearInterval(timer);
    }
    totals.push(peak.total - baseline.total);
    externals.push(peak.external - baseline.external);
  }
  return { total: median(totals), external: median(externals) };
}

/**
 * Admits `runs` plate.read calls carrying one `fileBytes` file (default 10 MB, the
 * per-file cap) through the route handler: timed runs first, then memory-sampled runs, and
 * memory-sampled runs with a 1 KB file for the handler's fixed cost.
 */
export async function measureMultipartAdmission(
  runtime: Runtime,
  options: { fileBytes?: number; runs?: number } = {},
): Promise<MultipartBenchReport> {
  const fileBytes = options.fileBytes ?? 10 * 1024 * 1024;
  const runs = options.runs ?? 8;
  const gc = garbageCollector();
  const org = await createOrganization(runtime.services, { name: 'Multipart Bench Org', plan: 'enterprise' });
  await depositCredits(runtime.services, org.organization.id, false, 1_000_000, 'bench');
  const services: Services = { ...runtime.services, objects: new DiscardingObjectStore() };
  const handler = createJob.forServices(services);
  const invoke: Invoke = async (event) => {
    const result = await handler(event, lambdaContext());
    if (result.statusCode !== 202) throw new Error(`admission answered ${result.statusCode}: ${result.body}`);
  };
  runtime.worker.pause();
  try {
    await invoke(proxyEvent(org.testKey, 1024)); // warm-up: module state, SDK clients, caches
    const timings: number[] = [];
    let eventBodyBytes = 0;
    for (let i = 0; i < runs; i++) {
      const event = proxyEvent(org.testKey, fileBytes);
      eventBodyBytes = event.body!.length;
      await settleMemory(gc);
      const started = performance.now();
      await invoke(event);
      timings.push(performance.now() - started);
    }
    const overhead = await peakMemory(invoke, gc, () => proxyEvent(org.testKey, 1024), runs);
    const loaded = await peakMemory(invoke, gc, () => proxyEvent(org.testKey, fileBytes), runs);
    return {
      endpoint: 'plate.read',
      fileBytes,
      eventBodyBytes,
      runs,
      p50Ms: Number(median(timings).toFixed(1)),
      maxMs: Number(Math.max(...timings).toFixed(1)),
      peakAddedBytes: loaded.total,
      peakAddedExternalBytes: loaded.external,
      overheadBytes: overhead.total,
      overheadExternalBytes: overhead.external,
      fileCopiesAtPeak: Number(((loaded.external - overhead.external) / fileBytes).toFixed(2)),
    };
  } finally {
    runtime.worker.resume();
  }
}

export function formatMultipartReport(report: MultipartBenchReport): string {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return [
    `${report.endpoint}, one ${mb(report.fileBytes)} file, base64 event body ${mb(report.eventBodyBytes)}, ${report.runs} runs`,
    `time: p50 ${report.p50Ms} ms · max ${report.maxMs} ms`,
    `peak memory added by the handler: ${mb(report.peakAddedBytes)} heap+external, of which ${mb(report.peakAddedExternalBytes)} external (Buffers)`,
    `same for a 1 KB file (fixed cost): ${mb(report.overheadBytes)}, of which ${mb(report.overheadExternalBytes)} external`,
    `file-sized buffers held at the peak: ${report.fileCopiesAtPeak} (the decoded body is one; the base64 event the handler was given is not counted)`,
  ].join('\n');
}

/** `npx tsx bench/multipart.ts`: the benchmark alone, on its own stand-ins. */
async function main(): Promise<void> {
  const dynamodb = await startDynamoDbLocal();
  const objectsAndQueues = await startObjectAndQueueServer();
  const runtime = await startRuntime({
    port: 0,
    standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
    sweepIntervalMs: 0,
  });
  try {
    console.log('\n## Multipart admission through the create-job route handler');
    console.log(
      formatMultipartReport(await measureMultipartAdmission(runtime, { runs: Number(process.env.BENCH_RUNS ?? 8) })),
    );
  } finally {
    await runtime.stop();
    await objectsAndQueues.stop();
    await dynamodb.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
