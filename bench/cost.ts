import '../local/quiet-warnings.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { type AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { isTerminal } from '../lambdas/domain/jobs/job.js';
import { depositCredits } from '../lambdas/domain/money/credits.js';
import { createWebhookEndpoint } from '../lambdas/domain/webhooks/endpoints.js';
import { type Runtime, startRuntime } from '../local/runtime.js';
import { startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from '../local/stand-ins/object-and-queue-server.js';
import { Receiver } from '../test/support/receiver.js';
import { aroundCalls, tapClient } from './call-counter.js';
import { asItem, billConditionCheck, billWrite, ImageReader, type Item, type WriteBill } from './dynamodb-billing.js';

/**
 * `npm run bench:cost`: counts the AWS calls that real operations make on the local runtime (each
 * DynamoDB write billed as AWS bills it, from the items before and after it), and the runtime's log
 * bytes, prices them at list prices and writes docs/internals/cost.md. What the local runtime does
 * not run (API Gateway, Lambda, Step Functions, Lambda's own log lines) is added per operation from
 * the design, with the assumption stated.
 */

type Tally = Record<string, number>;

const PRICES = {
  apiGatewayPerRequest: 3.5 / 1e6,
  lambdaPerRequest: 0.2 / 1e6,
  lambdaPerGbSecond: 0.0000133334, // arm64
  dynamoPerWru: 0.625 / 1e6,
  dynamoPerRru: 0.125 / 1e6,
  s3PerPut: 0.005 / 1000,
  s3PerGet: 0.0004 / 1000,
  sqsPerRequest: 0.4 / 1e6,
  pipesPerEvent: 0.4 / 1e6,
  stepFunctionsPerTransition: 0.025 / 1000,
  logsPerGb: 0.5,
} as const;

/**
 * What Lambda itself writes to CloudWatch Logs per invocation in its default text format: the
 * START, END and REPORT lines (about 70, 50 and 180 bytes).
 */
const PLATFORM_LOG_BYTES_PER_INVOCATION = 300;

/**
 * Counts the runtime's own JSON log lines (its logger at INFO, the level the stack's functions log
 * at) into `logs.bytes` and keeps them off the bench's output.
 */
function measureLogs(tally: () => Tally): void {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (!text.startsWith('{"level":')) return write(chunk, ...rest);
    const t = tally();
    t['logs.bytes'] = (t['logs.bytes'] ?? 0) + Buffer.byteLength(text);
    return true;
  }) as typeof process.stdout.write;
}

/** Lambda work per operation that the local runtime does not bill: invocations and their GB-seconds (512 MB). */
interface LambdaWork {
  invocations: number;
  gbSeconds: number;
}

/** One item a DynamoDB write touches, as its request names it. */
interface WriteTarget {
  table: string;
  action: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  key?: Item;
  item?: Item;
  transactional: boolean;
}

function writeTargets(command: string, input: Record<string, unknown>): WriteTarget[] {
  type Request = { TableName: string; Key?: Item; Item?: Item };
  const single = input as unknown as Request;
  switch (command) {
    case 'PutItemCommand':
      return [{ table: single.TableName, action: 'Put', item: single.Item, transactional: false }];
    case 'UpdateItemCommand':
      return [{ table: single.TableName, action: 'Update', key: single.Key, transactional: false }];
    case 'DeleteItemCommand':
      return [{ table: single.TableName, action: 'Delete', key: single.Key, transactional: false }];
    case 'TransactWriteItemsCommand':
      return (input.TransactItems as Array<Record<string, Request>>).map((entry) => {
        const [action, request] = Object.entries(entry)[0] as [WriteTarget['action'], Request];
        return { table: request.TableName, action, key: request.Key, item: request.Item, transactional: true };
      });
    case 'BatchWriteItemCommand':
      return Object.entries(
        input.RequestItems as Record<string, Array<{ PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }>>,
      ).flatMap(([table, requests]) =>
        requests.map((request) =>
          request.PutRequest
            ? { table, action: 'Put' as const, item: request.PutRequest.Item, transactional: false }
            : { table, action: 'Delete' as const, key: request.DeleteRequest!.Key, transactional: false },
        ),
      );
    default:
      return [];
  }
}

/** An item's kind as its key names it: the partition key's prefix and the sort key's when it is a name (`ORG/BALANCE`, `JOB`). */
function kindOf(key: Item): string {
  const prefix = (value: AttributeValue | undefined) => (value?.S ?? '').split('#')[0] ?? '';
  const sort = prefix(key.sk);
  return /^[A-Z]+$/.test(sort) ? `${prefix(key.pk)}/${sort}` : prefix(key.pk);
}

/** The DynamoDB writes of one part of the run, grouped by what they touch, with what AWS bills them. */
type WriteLog = Map<string, { count: number; table: number; indexes: Record<string, number> }>;

function recordWrite(log: WriteLog, command: string, targets: WriteTarget[], bills: WriteBill[], keys: Item[]): void {
  const what = `${command.replace(/Command$/, '')} (${targets.map((target, i) => `${target.action} ${kindOf(keys[i]!)}`).join(', ')})`;
  const entry = log.get(what) ?? { count: 0, table: 0, indexes: {} };
  entry.count += 1;
  for (const bill of bills) {
    entry.table += bill.table;
    for (const [name, units] of Object.entries(bill.indexes)) entry.indexes[name] = (entry.indexes[name] ?? 0) + units;
  }
  log.set(what, entry);
  // `COST_TRACE=1`: every write on stderr as it happens
  if (process.env.COST_TRACE) {
    const items = targets.map((target, i) => {
      const indexes = Object.entries(bills[i]!.indexes).map(([name, units]) => ` ${name} ${units}`);
      return `${target.action} ${kindOf(keys[i]!)} ${bills[i]!.table}${indexes.join('')}`;
    });
    console.error(`${command} [${items.join(', ')}]`);
  }
}

/** The writes of `log` per operation, most expensive first, as a table. */
function writeTable(log: WriteLog, operations: number): string {
  const rows = [...log.entries()]
    .map(([what, entry]) => {
      const indexUnits = Object.values(entry.indexes).reduce((a, b) => a + b, 0);
      return { what, ...entry, total: (entry.table + indexUnits) / operations };
    })
    .filter((row) => row.count / operations >= 0.05)
    .sort((a, b) => b.total - a.total)
    .map((row) => {
      const indexes = Object.entries(row.indexes)
        .sort()
        .map(([name, units]) => `\`${name}\` ${(units / operations).toFixed(2)}`)
        .join(', ');
      return `| ${row.what} | ${(row.count / operations).toFixed(2)} | ${(row.table / operations).toFixed(2)} | ${indexes || '0'} | ${row.total.toFixed(2)} |`;
    });
  return [
    '| write (the items it touches) | per operation | table units | index units | all units |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * Counts every SDK call, and bills each DynamoDB write as AWS would (`bench/dynamodb-billing.ts`),
 * reading the items it touches before and after it through `images`, a client the bench does not
 * count. Reads are counted as DynamoDB Local reports them.
 */
function instrument(tally: () => Tally, writes: () => WriteLog, images: ImageReader): void {
  const count = (name: string, n = 1) => {
    const t = tally();
    t[name] = (t[name] ?? 0) + n;
  };
  aroundCalls(async ({ service, command, input }, next) => {
    if (service !== 'dynamodb') {
      const result = await next();
      count(`${service}.${command}`);
      return result;
    }
    input.ReturnConsumedCapacity = 'INDEXES';
    const targets = writeTargets(command, input).map((target) => ({
      ...target,
      key: target.key && asItem(target.key),
      item: target.item && asItem(target.item),
    }));
    const shapes = await Promise.all(targets.map((target) => images.shape(target.table)));
    const keys = targets.map(
      (target, i) => target.key ?? Object.fromEntries(shapes[i]!.keys.map((name) => [name, target.item![name]!])),
    );
    const before = await Promise.all(targets.map((target, i) => images.image(target.table, keys[i]!)));
    let result: Awaited<ReturnType<typeof next>> | undefined;
    try {
      result = await next();
    } finally {
      count(`${service}.${command}`);
      // a refused write is billed too (a cancelled transaction for its prepare phase): on its items as they stand
      const after = result
        ? await Promise.all(
            targets.map((target, i) =>
              target.action === 'ConditionCheck' ? undefined : images.image(target.table, keys[i]!),
            ),
          )
        : before;
      const bills = targets.map((target, i) =>
        target.action === 'ConditionCheck'
          ? billConditionCheck(before[i])
          : billWrite(shapes[i]!, before[i], after[i], target.transactional),
      );
      for (const bill of bills) {
        const indexUnits = Object.values(bill.indexes).reduce((a, b) => a + b, 0);
        count('dynamodb.wru', bill.table + indexUnits);
        count('dynamodb.wru.indexes', indexUnits);
      }
      if (targets.length > 0) recordWrite(writes(), result ? command : `${command} (refused)`, targets, bills, keys);
    }
    if (targets.length === 0) {
      const consumed = ([] as Array<{ ReadCapacityUnits?: number; CapacityUnits?: number }>).concat(
        (result!.output.ConsumedCapacity as never) ?? [],
      );
      for (const unit of consumed) count('dynamodb.rru', unit.ReadCapacityUnits ?? unit.CapacityUnits ?? 0);
    }
    return result;
  });
}

function usd(
  tally: Tally,
  units: number,
  lambda: LambdaWork,
  extra: { apiRequests: number; transitions?: number; pipeEvents?: number },
): Measured & { lines: string[]; dynamoDbPerMillion: number; rruPerMillion: number } {
  const per = (name: string) => (tally[name] ?? 0) / units;
  const s3Puts = per('s3.PutObjectCommand') + per('s3.CopyObjectCommand');
  const s3Gets = per('s3.GetObjectCommand') + per('s3.HeadObjectCommand');
  const sqs = Object.keys(tally)
    .filter((k) => k.startsWith('sqs.'))
    .reduce((sum, k) => sum + per(k), 0);
  const parts = {
    'API Gateway': extra.apiRequests * PRICES.apiGatewayPerRequest,
    Lambda: lambda.invocations * PRICES.lambdaPerRequest + lambda.gbSeconds * PRICES.lambdaPerGbSecond,
    'DynamoDB (on demand)': per('dynamodb.wru') * PRICES.dynamoPerWru + per('dynamodb.rru') * PRICES.dynamoPerRru,
    S3: s3Puts * PRICES.s3PerPut + s3Gets * PRICES.s3PerGet,
    SQS: sqs * PRICES.sqsPerRequest,
    'EventBridge Pipes': (extra.pipeEvents ?? 0) * PRICES.pipesPerEvent,
    'Step Functions': (extra.transitions ?? 0) * PRICES.stepFunctionsPerTransition,
    'CloudWatch Logs':
      ((per('logs.bytes') + lambda.invocations * PLATFORM_LOG_BYTES_PER_INVOCATION) / 1e9) * PRICES.logsPerGb,
  };
  const perMillion = Object.values(parts).reduce((a, b) => a + b, 0) * 1e6;
  const lines = [
    `WRU ${per('dynamodb.wru').toFixed(1)} (of which index writes ${per('dynamodb.wru.indexes').toFixed(1)}), RRU ${per('dynamodb.rru').toFixed(1)}, S3 writes ${s3Puts.toFixed(1)}, S3 reads ${s3Gets.toFixed(1)}, SQS requests ${sqs.toFixed(1)}, API requests ${extra.apiRequests}, Lambda invocations ${lambda.invocations}`,
    ...Object.entries(parts).map(([name, value]) => `${name}: $${(value * 1e6).toFixed(2)}`),
  ];
  return {
    perMillion,
    wru: per('dynamodb.wru'),
    indexWru: per('dynamodb.wru.indexes'),
    lines,
    dynamoDbPerMillion: parts['DynamoDB (on demand)'] * 1e6,
    rruPerMillion: per('dynamodb.rru') * PRICES.dynamoPerRru * 1e6,
  };
}

/** What one operation cost in one run: the figures a change is judged by. */
interface Measured {
  perMillion: number;
  wru: number;
  indexWru: number;
}

type Operation = 'plate.read' | 'video.onboard' | 'webhook delivery' | 'inspection';

/** One change to the store and the figures measured once it was made (the first entry: before any). */
interface Change {
  change: string;
  measured: Record<Operation, Measured>;
}

/**
 * Every change's measured figures, oldest first. A run with `COST_CHANGE="what changed"` adds its
 * figures as that change's entry; every run shows each change's effect as the step from the entry
 * before it, so docs/internals/cost.md keeps the before and after of each change measured by this bench.
 */
const HISTORY = 'bench/cost-history.json';

function effectTable(history: readonly Change[], now: Record<Operation, Measured>): string {
  const operations: Operation[] = ['plate.read', 'video.onboard', 'webhook delivery', 'inspection'];
  const cell = (before: Measured, after: Measured) =>
    `$${before.perMillion.toFixed(2)} → $${after.perMillion.toFixed(2)}; WRU ${before.wru.toFixed(1)} → ${after.wru.toFixed(1)} (index ${before.indexWru.toFixed(1)} → ${after.indexWru.toFixed(1)})`;
  if (history.length === 0) return '';
  const steps = history.slice(1).map((entry, i) => ({ change: entry.change, before: history[i]!, after: entry }));
  const rows = steps.map(
    ({ change, before, after }) =>
      `| ${change} | ${operations.map((op) => cell(before.measured[op], after.measured[op])).join(' | ')} |`,
  );
  const first = history[0]!;
  rows.push(
    `| all of the above: ${first.change} → this run | ${operations.map((op) => cell(first.measured[op], now[op])).join(' | ')} |`,
  );
  return [
    `| change | ${operations.map((op) => `\`${op}\` (USD per 1M; WRU per operation)`).join(' | ')} |`,
    `|---|${operations.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n');
}

async function settled(runtime: Runtime, ids: string[]): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (const id of ids) {
    while (!isTerminal((await runtime.services.jobs.get(id))?.status ?? 'queued')) {
      if (Date.now() > deadline) throw new Error('jobs did not settle');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

async function main(): Promise<void> {
  const n = Number(process.env.COST_JOBS ?? 100);
  const dynamodb = await startDynamoDbLocal();
  let uncounted: DynamoDBClient | undefined;
  const objectsAndQueues = await startObjectAndQueueServer();
  const runtime = await startRuntime({
    port: 0,
    standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
    logLevel: 'INFO',
    instrumentClient: (service, client) => {
      tapClient(service, client);
      if (service === 'dynamodb') uncounted = client as DynamoDBClient;
    },
  });
  const receiver = await new Receiver().start();
  let tally: Tally = {};
  let writes: WriteLog = new Map();
  // the same account and region as the runtime's client (DynamoDB Local keeps one database per pair), untapped
  const config = uncounted!.config;
  instrument(
    () => tally,
    () => writes,
    new ImageReader(
      new DynamoDBClient({ endpoint: dynamodb.endpoint, region: config.region, credentials: config.credentials }),
    ),
  );
  measureLogs(() => tally);
  const rows: string[] = [];
  try {
    const org = await createOrganization(runtime.services, { name: 'Cost', plan: 'enterprise' });
    await depositCredits(runtime.services, org.organization.id, false, 100_000_000, 'cost');
    const auth = { Authorization: `Bearer ${org.testKey}` };
    const image = (i: number) => {
      const form = new FormData();
      form.append('image', new Blob([Buffer.alloc(2048, i % 251)], { type: 'image/jpeg' }), 'car.jpg');
      return form;
    };

    // 1. image endpoint: admission + settlement, no webhook endpoint yet
    tally = {};
    writes = new Map();
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push(
        (
          (await (
            await fetch(`${runtime.baseUrl}/v1/plate.read`, { method: 'POST', headers: auth, body: image(i) })
          ).json()) as { id: string }
        ).id,
      );
    await settled(runtime, ids);
    const plateTally = { ...tally };
    const plateWrites = writes;
    const plate = usd(tally, n, { invocations: 2, gbSeconds: 0.5 * (0.05 + 0.05) }, { apiRequests: 1, pipeEvents: 1 });
    rows.push(
      `| \`plate.read\` (test mode; 1 API call, admission + settlement) | $${plate.perMillion.toFixed(2)} | ${plate.lines.join('; ')} |`,
    );

    // 2. video endpoint through an upload: create the upload, PUT (presigned, to S3), admit, settle
    tally = {};
    writes = new Map();
    const videos: string[] = [];
    for (let i = 0; i < n; i++) {
      const bytes = Buffer.alloc(4096, i % 251);
      const upload = (await (
        await fetch(`${runtime.baseUrl}/v1/uploads`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ content_type: 'video/mp4', size_bytes: bytes.length }),
        })
      ).json()) as { url: string; upload_ref: string };
      await fetch(upload.url, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: bytes });
      tally['s3.PutObjectCommand'] = (tally['s3.PutObjectCommand'] ?? 0) + 1; // the client's presigned PUT
      videos.push(
        (
          (await (
            await fetch(`${runtime.baseUrl}/v1/video.onboard`, {
              method: 'POST',
              headers: { ...auth, 'Content-Type': 'application/json' },
              body: JSON.stringify({ input_ref: upload.upload_ref }),
            })
          ).json()) as { id: string }
        ).id,
      );
    }
    await settled(runtime, videos);
    const video = usd(
      tally,
      n,
      { invocations: 3, gbSeconds: 0.5 * (0.05 + 0.05 + 0.2) },
      { apiRequests: 2, pipeEvents: 1 },
    );
    rows.push(
      `| \`video.onboard\` (upload + PUT + admission + settlement) | $${video.perMillion.toFixed(2)} | ${video.lines.join('; ')} |`,
    );

    // 3. webhook delivery: the same jobs with one endpoint subscribed, less the same jobs without it
    await createWebhookEndpoint(runtime.services, org.organization.id, {
      url: receiver.url,
      enabled_events: ['job.succeeded'],
    });
    tally = {};
    writes = new Map();
    const hooked: string[] = [];
    for (let i = 0; i < n; i++)
      hooked.push(
        (
          (await (
            await fetch(`${runtime.baseUrl}/v1/plate.read`, { method: 'POST', headers: auth, body: image(i + n) })
          ).json()) as { id: string }
        ).id,
      );
    await settled(runtime, hooked);
    while (receiver.requests.length < n) await new Promise((resolve) => setTimeout(resolve, 20));
    const delivery: Tally = Object.fromEntries(
      Object.entries(tally).map(([name, value]) => [name, Math.max(0, value - (plateTally[name] ?? 0))]),
    );
    const hook = usd(delivery, n, { invocations: 1, gbSeconds: 0.5 * 0.1 }, { apiRequests: 0 });
    rows.push(
      `| webhook delivery (dispatch + one delivered attempt, one endpoint) | $${hook.perMillion.toFixed(2)} | ${hook.lines.join('; ')} |`,
    );

    // 4. inspection: admission, eight stage jobs, eight records with their events, settlement (STANDARD state machine)
    tally = {};
    writes = new Map();
    const inspections: string[] = [];
    const count = Math.max(5, Math.floor(n / 10));
    for (let i = 0; i < count; i++) {
      const refs: string[] = [];
      for (const [type, size] of [
        ['video/mp4', 4096],
        ['image/jpeg', 2048],
      ] as const) {
        const bytes = Buffer.alloc(size, (i * 7 + size) % 251);
        const upload = (await (
          await fetch(`${runtime.baseUrl}/v1/uploads`, {
            method: 'POST',
            headers: { ...auth, 'Content-Type': 'application/json' },
            body: JSON.stringify({ content_type: type, size_bytes: bytes.length }),
          })
        ).json()) as { url: string; upload_ref: string };
        await fetch(upload.url, { method: 'PUT', headers: { 'Content-Type': type }, body: bytes });
        refs.push(upload.upload_ref);
      }
      inspections.push(
        (
          (await (
            await fetch(`${runtime.baseUrl}/v1/inspections`, {
              method: 'POST',
              headers: { ...auth, 'Content-Type': 'application/json' },
              body: JSON.stringify({ input_refs: refs }),
            })
          ).json()) as { id: string }
        ).id,
      );
    }
    await settled(runtime, inspections);
    // the state machine: ~5 transitions per stage (gate, create+wait, record, choice) plus start and end
    const inspection = usd(
      tally,
      count,
      { invocations: 3 + 8 * 4, gbSeconds: 0.5 * (35 * 0.05) },
      { apiRequests: 3, transitions: 8 * 5 + 4, pipeEvents: 9 },
    );
    rows.push(
      `| inspection (2 uploads, admission, 8 stage jobs, 8 stage events, settlement) | $${inspection.perMillion.toFixed(2)} | ${inspection.lines.join('; ')} |`,
    );

    const now: Record<Operation, Measured> = {
      'plate.read': plate,
      'video.onboard': video,
      'webhook delivery': hook,
      inspection,
    };
    const history = JSON.parse(readFileSync(HISTORY, 'utf8')) as Change[];
    if (process.env.COST_CHANGE) {
      const figures = (m: Measured): Measured => ({
        perMillion: Number(m.perMillion.toFixed(2)),
        wru: Number(m.wru.toFixed(1)),
        indexWru: Number(m.indexWru.toFixed(1)),
      });
      history.push({
        change: process.env.COST_CHANGE,
        measured: Object.fromEntries(Object.entries(now).map(([op, m]) => [op, figures(m)])) as Record<
          Operation,
          Measured
        >,
      });
      writeFileSync(HISTORY, `${JSON.stringify(history, null, 2)}\n`);
    }

    const doc = `# Cost per operation

Generated by \`npm run bench:cost\` (\`bench/cost.ts\`): real operations on the local runtime,
every AWS SDK call counted by middleware, priced at us-east-1 list prices. DynamoDB writes are billed
as AWS bills them (\`bench/dynamodb-billing.ts\`), worked out from each item the write touches, read
before and after it by a client the bench does not count:

- a write is billed per item, one unit per KB started of the larger of the item before and after
  it; twice that inside a transaction, where a \`ConditionCheck\` is billed the same on the item it
  reads;
- an index is billed on its own entry (its keys and projected attributes), never doubled by a
  transaction: one unit per KB for an entry added, removed or changed, two images for an entry that
  moves to another key, nothing when the entry does not change.

DynamoDB Local's own \`ConsumedCapacity\` is not the bill: it sizes a transaction on the total of
its items (a five-item admission of small items is reported at 4 units; AWS bills 10), reports
nothing for a \`ConditionCheck\` and doubles index writes inside a transaction. Read units are
counted as DynamoDB Local reports them. The prices:

- API Gateway REST, $3.50 per million requests;
- Lambda arm64, $0.20 per million requests and $0.0000133334 per GB-second;
- DynamoDB on demand, $0.625 per million WRU and $0.125 per million RRU;
- S3, $0.005 per 1,000 writes and $0.0004 per 1,000 reads;
- SQS, $0.40 per million requests (locally the runtime itself sends what an EventBridge Pipe
  sends on AWS, and its queue loops poll like event source mappings: both are counted);
- EventBridge Pipes, $0.40 per million events that pass the filter (one per job admitted);
- Step Functions STANDARD, $0.025 per 1,000 transitions;
- CloudWatch Logs ingestion, $0.50 per GB: the runtime's own JSON log lines, counted as it writes
  them at \`INFO\` (the level the stack's functions log at), and Lambda's START, END and REPORT
  lines, about ${PLATFORM_LOG_BYTES_PER_INVOCATION} bytes per invocation.

What the local runtime does not run is added from the design, per operation:

- API Gateway requests and Lambda invocations, at 512 MB (the stack's setting) and 50 ms each
  (200 ms for a video worker);
- about 44 state transitions per inspection.

Free tiers, data transfer, storage and X-Ray are left out. \`COST_TRACE=1\` prints each DynamoDB
write on stderr with the items it touched and the units AWS bills each of them and each index
(\`COST_JOBS\` sets how many jobs of each kind run, 100 by default).

| operation | USD per 1M | where it goes (per operation) |
|---|---|---|
${rows.join('\n')}

## What each change did

Each change to the store was measured by this bench once it was made (\`COST_CHANGE="…" npm run
bench:cost\` records the run in \`bench/cost-history.json\`); a row is the step from the run before
it, the last row the whole way to this run. Figures move a little between runs of the same code
(a transaction cancelled by a conflict and retried is billed again, as on AWS). The rows up to the
bench's own change (\`write units as AWS bills them\`) counted write units as DynamoDB Local reported
them; that row is the same service counted both ways, and the figures after it are AWS's.

${effectTable(history, now)}

The goals of issue 37 are at most $16 per million test-mode \`plate.read\` jobs and at most 600
write units per inspection. This run: \`plate.read\` $${plate.perMillion.toFixed(2)} (${plate.perMillion <= 16 ? 'met' : '**not met**'}),
an inspection ${inspection.wru.toFixed(0)} write units (${inspection.wru <= 600 ? 'met' : '**not met**'}).

### Why \`plate.read\` stays above $16 per million

The DynamoDB writes of a test-mode \`plate.read\` in this run (${n} jobs), as AWS bills them:

${writeTable(plateWrites, n)}

(The sweeper's lease is written every second whatever the load: its share per job falls as jobs
come faster. A settled job item over 1 KB, as some sandbox results make it, costs 4 units instead
of 2.)

DynamoDB comes to $${plate.dynamoDbPerMillion.toFixed(2)} of the $${plate.perMillion.toFixed(2)}, everything else (API Gateway, Lambda,
SQS, the Pipe and the logs of the first table) to $${(plate.perMillion - plate.dynamoDbPerMillion).toFixed(2)}, so $16 leaves
$${(16 - (plate.perMillion - plate.dynamoDbPerMillion)).toFixed(2)} for DynamoDB: ${((16 - (plate.perMillion - plate.dynamoDbPerMillion) - plate.rruPerMillion) / 0.625).toFixed(1)} write units once this run's reads ($${plate.rruPerMillion.toFixed(2)}) are paid.
The money rules alone take 12 of them (the floor below), before the five other writes of a job,
each of which a documented rule needs: the rate-limit counter (2 units) and the key's spend
counter (2) at admission, the usage row (2), the outbox event and its list entry (3) and the check
that no webhook endpoint listens (2) at settlement, and the sweepers' index entry that lets an
abandoned job expire and release its reservation (1 when written, 1 when removed). Each
transactional item costs two units however small, so the figure moves only when a write goes.

### An inspection's stages as items of their own

A stage is an item beside its inspection (\`pk\` \`JOB#<id>\`, \`sk\` \`STAGE#01\`…\`STAGE#08\`, no index
entry), written when the stage starts and when it is recorded, with the files it produced. The
inspection item keeps the plan written at admission and its stage counters, so the start and the
record of a stage update a small item instead of rewriting every stage so far (results and files
included) and its \`gsi1\` copy: DynamoDB bills an update for the whole item, before or after,
whichever is larger. Reading an inspection is its item plus one query of its stage items
(strongly consistent, like the read of the job); a page of \`GET /v1/jobs\` makes that query for
each inspection on it. A redaction writes the redacted stages back into the inspection item and
deletes the stage items (a redacted inspection's item is read alone).

Data stored before: an inspection written before this change has every stage in its item and no
stage items, and is read as it was stored; one in flight during the deploy gets stage items for
the stages that start or are recorded after it, and each replaces its entry of the item's plan.
No migration is needed.

### Events on a lean index

An event carries the whole job (\`data.job\`), and the organisation's event list index (\`gsi2\`)
projects every attribute: each event was written twice at full size, and every later update of
it (marked dispatched, redacted) rewrote its index entry too. New events are listed from \`gsi4\`
instead, which holds their keys and what the lists filter on (\`type\`, \`job_id\`, \`created\`):
one write unit an event whatever its size, and none when the event is marked dispatched or
redacted. \`GET /v1/events\` reads a page's events by key afterwards (one \`BatchGetItem\`), and
redaction reads only the events of the jobs it redacts.

Data stored before: events written before \`gsi4\` existed stay on \`gsi2\`, whole. Both indexes
are read and merged by event id (ids are time-ordered), so old events list as before, in order,
with the same cursors; no backfill. Deploying adds one index, which CloudFormation does in place
(it allows one new global secondary index per stack update); reading \`gsi2\` for events can go
once no event older than the deploy is kept.

When this change was measured, DynamoDB Local reported two units for a \`plate.read\` event's index
entry both ways, whole (1.3 KB) and lean, so its row above shows the change for the larger events of
videos and inspections only; as AWS bills it, the lean entry saves one unit per \`plate.read\` too.

### Jobs listed from a lean index

A job was listed from \`gsi1\`, which projected every attribute: every write of a job was written
again, whole, on the index, an inspection's at each stage start and record (eight stages, with
their plan) and each stage job's at its settlement with its result. New jobs are listed from
\`gsi5\` instead, which holds their keys and what the job lists filter on (\`status\`,
\`endpoint\`, \`batch_id\`, \`parent_job_id\`): a job's entry is written when one of those
changes (its creation and each change of status) at the entry's small size, and not at all when
an inspection records a stage. \`GET /v1/jobs\` reads a page's
entries from the index, filtered there, then the jobs themselves by key (one strongly consistent
\`BatchGetItem\`), filtered again as they are then, reading on until the page is full; retention
reads its range of jobs the same way (\`lambdas/adapters/dynamodb/job-index.ts\`). A
\`plate.read\` job gains nothing: its two index writes (creation, settlement) each change \`status\`,
and its whole item is under 1 KB, so each costs one unit on either index.

Data stored before: jobs written before \`gsi5\` existed stay on \`gsi1\`, whole, and keep their
entry there through later updates (nothing rewrites their index keys). Both indexes are read and
merged by id (ids are time-ordered), so old jobs list as before, in order, with the same cursors;
no backfill. Deploying adds one index, which CloudFormation does in place (one new global
secondary index per stack update: deploy this change on its own, not with another index change);
reading \`gsi1\` for jobs can go once no job older than the deploy is kept. Batches and the
ledger's old entries stay on \`gsi1\`.

### Events stored compressed

An event's body is the whole job as it was when the event fired (\`data.job\`, identical to what
\`GET /v1/jobs/{id}\` returned at that instant, \`docs/internals/webhooks.md\`), so an inspection's
\`inspection.stage_completed\` events and its settlement's two events carry every stage result so
far (the settlement's are about 40 KB as JSON). Each was written at that size, and rewritten
whole when the dispatcher marked it dispatched (DynamoDB bills an update by the whole item). The
event is now stored gzip-compressed in one binary attribute (\`event_gz\`, \`lambdas/adapters/dynamodb/event-body.ts\`),
what the lists filter on (\`type\`, \`job_id\`, \`created\`) beside it as before: a job's JSON,
repetitive by nature, shrinks several times over, and every write and update of the event with it.
The event is still a snapshot of its own, so a delivery, a redelivery and \`GET /v1/events\` send
exactly what fired; building \`data.job\` from the job item at delivery instead would not be, for
an inspection's stage events (the inspection moves on after each). Compressing costs a
millisecond of CPU per event; the body can no longer be read or filtered on in the DynamoDB
console (nothing filters on it).

Data stored before: events written before this change hold the event whole (\`event\`) and are
read as stored; a redaction rewrites an event compressed. No migration is needed.

The floor of a test-mode \`plate.read\`, with nothing but what the money rules and the job list
require and every other cost at zero (no Lambda duration, no log line, no queue, no event, no
usage row, no rate-limit or spend counter, no sweepers' index):

- the API Gateway REST request, $3.50, and two Lambda requests (the route and the worker), $0.40;
- the admission's transaction of at least the job, the balance and its \`reserve\` entry, each under
  1 KB (a transactional write is two units per KB): 6 WRU;
- the settlement's transaction of at least the job with its result (a settled \`plate.read\` job is
  under 1 KB) and its \`commit\` entry: 4 WRU;
- one entry of the job on its mode's list index at each of those writes, so that \`GET /v1/jobs\`
  can list it newest first: 2 WRU.

That is 12 WRU, $7.50, and $11.40 in all; two Lambda invocations of 50 ms at 512 MB add $0.67.
An HTTP API instead of the REST API would take $2.50 off, which DESIGN rules out. Measured here,
the rest is the writes of the table above beyond those, the reads, two Lambda durations, the work
message, the Pipe and the log lines.

What a job writes now:

- at admission, one transaction of five items: the job, the balance (its update also carries the
  keys version that makes a cached key's revocation hold, \`docs/internals/idempotency-and-rate-limits.md\`),
  the \`reserve\` ledger entry, the rate-limit counter and the key's spend counter (\`spent\`,
  \`docs/internals/spend-limits.md\`);
- at settlement, one transaction: the job with its result, the usage row (every counter of the job
  at once, \`requests\` included), the \`commit\` entry, the balance and the \`release\` entry when
  part of the reservation is returned, and the outbox event (an event's \`data.job\` is the whole
  job, stored compressed), with the check that no webhook endpoint listens;
- the index entries of the job (its mode's list and, while it is active, the sweepers' index) and
  of the event (the organisation's event list).

Done in this issue (the figures as DynamoDB Local reported write units then):

- a test-mode job that finishes at once is picked up and settled by one transaction: its
  separate \`processing\` write is gone (about 7 WRU, $4.50 per million);
- the key read and the rate-limit write moved into the admission transaction. That made
  admission one DynamoDB round trip instead of three, at about the same price (the counter
  now costs a transactional write, the key read became a condition check);
- the sweepers' index (\`gsi3\`) projects keys only: everything active is rewritten often, and
  each of those writes now costs one index unit whatever the item's size (the sweeper reads
  what is due with one \`BatchGetItem\`);
- a job has no organisation-wide index entry any more: the job history across both modes merges
  the two modes' pages by id;
- the ledger is one table partition per organisation and mode: a ledger entry has no index entry
  (three per job), and the listing across both modes merges the two partitions by id (entries
  written before are still listed, from where they are). Measured: 33.4 → 25.4 WRU per job;
- an event no endpoint listens to is written already dispatched, checked in the settlement's own
  transaction against the organisation's endpoint count (\`docs/internals/webhooks.md\`): no dispatch
  message, send, receive and delete (3 SQS requests), no dispatch reads, no second write of the
  event and no sweeper index entry, for one \`ConditionCheck\`. Measured: 25.4 → 20.4 WRU (before
  the check's 2), 3.5 → 2.5 RRU, 6.2 → 3.2 SQS requests per job;
- a test-mode multipart input is stored only where the sandbox model can return it unchanged
  (\`render.background\`): the other sandbox models derive their results from the SHA-256 taken while
  parsing (\`docs/internals/uploads.md\`). Live mode stores every input before the job exists, as before.
  S3 writes 1.0 → 0.0 per job ($5.00);
- the admission's key check is a condition on the balance it moves anyway, instead of a
  \`ConditionCheck\` item of its own, and the usage row is written once, by the settlement,
  instead of by both transactions. Measured together with the change above: WRU 24.7 → 22.7,
  $27.67 → $21.40. (As AWS bills them, the admission went from six transactional items to five
  and the settlement lost its usage write: 4 WRU.)

Together: \`plate.read\` from $43.22 to $21.40, an inspection from $3,638.71 (as DynamoDB Local counted).

Where more could come from, each with what it gives up:

- keep a \`job.succeeded\` / \`job.failed\` event's \`data.job\` by reference and build it from the
  settled job when delivering (the job no longer changes then, but a redaction and retention
  must then treat the event and the job as one);
- write the job's result to S3 and keep a key in the table (smaller job items, one more S3 write);
- the rate-limit counter as attributes of the balance item, which the admission updates anyway
  (2 WRU): the counter is one window per endpoint, so the balance would carry one for every endpoint
  called and grow past 1 KB, doubling the price of every update of it;
- Lambda's JSON log format with the system log level at \`WARN\`, which drops the START, END and
  REPORT lines (about $0.30 per million \`plate.read\`), and with them each invocation's duration
  and memory in the logs;
- an HTTP API instead of the REST API ($1.00 instead of $3.50 per million requests), which DESIGN
  rules out.

Inspections are dominated by their events (each stage event carries the whole inspection so
far, compressed), the stage jobs' own items and index entries, and by
about 44 Step Functions STANDARD transitions ($1,100 per million inspections on their own; an
EXPRESS workflow is not an option with 15-minute task-token waits).
`;
    writeFileSync('docs/internals/cost.md', doc);
    console.log(doc);
  } finally {
    await receiver.stop();
    await runtime.stop();
    await objectsAndQueues.stop();
    await dynamodb.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
