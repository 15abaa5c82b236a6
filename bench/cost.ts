import '../local/quiet-warnings.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { isTerminal } from '../lambdas/domain/jobs/job.js';
import { depositCredits } from '../lambdas/domain/money/credits.js';
import { createWebhookEndpoint } from '../lambdas/domain/webhooks/endpoints.js';
import { type Runtime, startRuntime } from '../local/runtime.js';
import { startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from '../local/stand-ins/object-and-queue-server.js';
import { Receiver } from '../test/support/receiver.js';
import { aroundCalls, tapClient } from './call-counter.js';

/**
 * `npm run bench:cost`: counts the AWS calls (and DynamoDB capacity units, as DynamoDB Local
 * reports them) that real operations make on the local runtime, prices them at list prices and
 * writes docs/internals/cost.md. Everything the local runtime does not run (API Gateway, Lambda, Step
 * Functions, logs) is added per operation from the design, with the assumption stated.
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

/** A ConditionCheck in a transaction, on an item under 1 KB: two write units, as a transactional write of it. */
const TRANSACTIONAL_CONDITION_CHECK_WRU = 2;

/** Lambda work per operation that the local runtime does not bill: invocations and their GB-seconds (512 MB). */
interface LambdaWork {
  invocations: number;
  gbSeconds: number;
}

/** `COST_TRACE=1`: one line per DynamoDB write on stderr (what it wrote and what DynamoDB Local billed for it). */
function trace(command: string, input: Record<string, unknown>, output: Record<string, unknown>): void {
  if (!/Write|Put|Update|Delete/.test(command)) return;
  const keyOf = (request: Record<string, unknown> | undefined) => {
    const body = (request ?? {}) as { Key?: Record<string, unknown>; Item?: Record<string, unknown> };
    const key = (body.Key ?? body.Item ?? {}) as { pk?: { S?: string } | string; sk?: { S?: string } | string };
    const text = (value: unknown) => (typeof value === 'string' ? value : ((value as { S?: string })?.S ?? ''));
    return `${text(key.pk).replace(/#.*/, '#')}${text(key.sk).replace(/[0-9A-Za-z_-]{8,}/g, '…')}`;
  };
  const items = (input.TransactItems as Array<Record<string, Record<string, unknown>>> | undefined)?.map(
    (item) => `${Object.keys(item)[0]} ${keyOf(Object.values(item)[0])}`,
  ) ?? [`${keyOf(input)}`];
  console.error(`${command} [${items.join(', ')}] ${JSON.stringify(output.ConsumedCapacity)}`);
}

function instrument(tally: () => Tally): void {
  const count = (name: string, n = 1) => {
    const t = tally();
    t[name] = (t[name] ?? 0) + n;
  };
  aroundCalls(async ({ service, command, input }, next) => {
    if (service === 'dynamodb') input.ReturnConsumedCapacity = 'INDEXES';
    const result = await next();
    count(`${service}.${command}`);
    // DynamoDB Local reports nothing for a transaction's ConditionCheck; AWS bills it as a transactional write of a small item
    const checks = ((input.TransactItems as Array<Record<string, unknown>> | undefined) ?? []).filter(
      (item) => 'ConditionCheck' in item,
    ).length;
    count('dynamodb.wru', checks * TRANSACTIONAL_CONDITION_CHECK_WRU);
    if (service === 'dynamodb' && process.env.COST_TRACE) trace(command, input, result.output);
    if (service === 'dynamodb') {
      const consumed = (
        [] as Array<{ ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number }>
      ).concat((result.output.ConsumedCapacity as never) ?? []);
      for (const unit of consumed as Array<{ GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }> }>) {
        const indexUnits = Object.values(unit.GlobalSecondaryIndexes ?? {}).reduce(
          (sum, index) => sum + (index.CapacityUnits ?? 0),
          0,
        );
        if (/Write|Put|Update|Delete/.test(command)) count('dynamodb.wru.indexes', indexUnits);
      }
      for (const unit of consumed) {
        const write =
          unit.WriteCapacityUnits ?? (/Write|Put|Update|Delete/.test(command) ? (unit.CapacityUnits ?? 0) : 0);
        const read =
          unit.ReadCapacityUnits ?? (/Write|Put|Update|Delete/.test(command) ? 0 : (unit.CapacityUnits ?? 0));
        count('dynamodb.wru', write);
        count('dynamodb.rru', read);
      }
    }
    return result;
  });
}

function usd(
  tally: Tally,
  units: number,
  lambda: LambdaWork,
  extra: { apiRequests: number; transitions?: number; logBytes: number; pipeEvents?: number },
): Measured & { lines: string[] } {
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
    'CloudWatch Logs': (extra.logBytes / 1e9) * PRICES.logsPerGb,
  };
  const perMillion = Object.values(parts).reduce((a, b) => a + b, 0) * 1e6;
  const lines = [
    `WRU ${per('dynamodb.wru').toFixed(1)} (of which index writes ${per('dynamodb.wru.indexes').toFixed(1)}), RRU ${per('dynamodb.rru').toFixed(1)}, S3 writes ${s3Puts.toFixed(1)}, S3 reads ${s3Gets.toFixed(1)}, SQS requests ${sqs.toFixed(1)}, API requests ${extra.apiRequests}, Lambda invocations ${lambda.invocations}`,
    ...Object.entries(parts).map(([name, value]) => `${name}: $${(value * 1e6).toFixed(2)}`),
  ];
  return { perMillion, wru: per('dynamodb.wru'), indexWru: per('dynamodb.wru.indexes'), lines };
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
  const objectsAndQueues = await startObjectAndQueueServer();
  const runtime = await startRuntime({
    port: 0,
    standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
    instrumentClient: tapClient,
  });
  const receiver = await new Receiver().start();
  let tally: Tally = {};
  instrument(() => tally);
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
    const plate = usd(
      tally,
      n,
      { invocations: 2, gbSeconds: 0.5 * (0.05 + 0.05) },
      { apiRequests: 1, logBytes: 4 * 350, pipeEvents: 1 },
    );
    rows.push(
      `| \`plate.read\` (test mode; 1 API call, admission + settlement) | $${plate.perMillion.toFixed(2)} | ${plate.lines.join('; ')} |`,
    );

    // 2. video endpoint through an upload: create the upload, PUT (presigned, to S3), admit, settle
    tally = {};
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
      { apiRequests: 2, logBytes: 5 * 350, pipeEvents: 1 },
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
    const hook = usd(delivery, n, { invocations: 1, gbSeconds: 0.5 * 0.1 }, { apiRequests: 0, logBytes: 350 });
    rows.push(
      `| webhook delivery (dispatch + one delivered attempt, one endpoint) | $${hook.perMillion.toFixed(2)} | ${hook.lines.join('; ')} |`,
    );

    // 4. inspection: admission, eight stage jobs, eight records with their events, settlement (STANDARD state machine)
    tally = {};
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
      { apiRequests: 3, transitions: 8 * 5 + 4, logBytes: 40 * 350, pipeEvents: 9 },
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
every AWS SDK call counted by middleware, DynamoDB capacity units as DynamoDB Local reports them
(\`ReturnConsumedCapacity: INDEXES\`, so index writes are counted and shown) plus 2 WRU for every
\`ConditionCheck\` in a transaction (DynamoDB Local reports none; AWS bills it as a transactional
write of a small item), priced at us-east-1 list prices:

- API Gateway REST, $3.50 per million requests;
- Lambda arm64, $0.20 per million requests and $0.0000133334 per GB-second;
- DynamoDB on demand, $0.625 per million WRU and $0.125 per million RRU;
- S3, $0.005 per 1,000 writes and $0.0004 per 1,000 reads;
- SQS, $0.40 per million requests (locally the runtime itself sends what an EventBridge Pipe
  sends on AWS, and its queue loops poll like event source mappings: both are counted);
- EventBridge Pipes, $0.40 per million events that pass the filter (one per job admitted);
- Step Functions STANDARD, $0.025 per 1,000 transitions;
- CloudWatch Logs ingestion, $0.50 per GB.

What the local runtime does not run is added from the design, per operation:

- API Gateway requests and Lambda invocations, at 512 MB and 50 ms each (200 ms for a video
  worker);
- about 350 bytes per log line;
- about 44 state transitions per inspection.

Free tiers, data transfer, storage and X-Ray are left out. \`COST_TRACE=1\` prints each DynamoDB
write on stderr with the items it wrote and the units DynamoDB Local reported for the table and
each index (\`COST_JOBS\` sets how many jobs of each kind run, 100 by default).

| operation | USD per 1M | where it goes (per operation) |
|---|---|---|
${rows.join('\n')}

## What each change did

Each change to the store was measured by this bench once it was made (\`COST_CHANGE="…" npm run
bench:cost\` records the run in \`bench/cost-history.json\`); a row is the step from the run before
it, the last row the whole way to this run. Figures move a little between runs of the same code
(DynamoDB Local counts a transaction retried after a lock conflict again).

${effectTable(history, now)}

The goals of issue 37 are at most $16 per million test-mode \`plate.read\` jobs and at most 600
write units per inspection. This run: \`plate.read\` $${plate.perMillion.toFixed(2)} (${plate.perMillion <= 16 ? 'met' : '**not met**'}),
an inspection ${inspection.wru.toFixed(0)} write units (${inspection.wru <= 600 ? 'met' : '**not met**'}).

### Why \`plate.read\` stays above $16 per million

Measured by this bench with \`COST_TRACE=1\` (100 jobs), a test-mode \`plate.read\` makes two
DynamoDB writes, both transactions, and DynamoDB Local reports:

| write | items | table units | index units |
|---|---|---|---|
| admission | the job (put), the balance, the \`reserve\` entry, the rate-limit counter, the key's spend counter | 4 | 4 (\`gsi5\` job list 2, \`gsi3\` sweepers 2) |
| settlement | the job with its result, the usage row, the \`commit\` entry, the event (put), the check that no endpoint listens (2 added by this bench) | 6.3 + 2 | 6 (\`gsi5\` 2, \`gsi3\` removal 2, \`gsi4\` events 2) |

22.3 units, plus 0.5 from the sweeper's lease: $14.5 of DynamoDB, and $7.1 of everything else
(API Gateway $3.50, Lambda $1.07, SQS $1.4, Pipes $0.40, logs $0.70). $16 leaves $8.9 for
DynamoDB, about 14 units: the money rules alone (the job, the balance and its \`reserve\` entry at
admission; the job and its \`commit\` entry at settlement) take about 6 table units in this count, the
job's list entry at both writes 4, and the sweepers' entry that lets an abandoned job expire and
release its reservation 4 more: 14 before the event, its list entry, the usage row and the rate
limit. Every index write in a transaction is reported at two units however small the entry, so
leaner entries no longer move this figure; what would is dropping one of those writes, each of
which a documented rule needs.

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

DynamoDB Local reports two units for a \`plate.read\` event's index entry both ways, whole (1.3 KB)
and lean: its count shows the change for the larger events of videos and inspections only. On
AWS, where an index entry is billed at one unit per KB, the lean entry saves one unit per
\`plate.read\` more than the table above shows.

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
\`plate.read\` job gains nothing in this count: its two index writes (creation, settlement) each
change \`status\`, and DynamoDB Local bills a transaction's index write at two units however small
the entry.

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

The goal of the performance issue is at most $12 per million test-mode \`plate.read\` jobs,
API Gateway included. **It is not met**, and no design that keeps the service's money rules and
the REST API that DESIGN names can meet it. The floor, with nothing but what those rules require
and every other cost at zero (no Lambda duration, no log line, no queue, no event, no usage row,
no rate-limit counter):

- the API Gateway REST request, $3.50, and two Lambda requests (the route and the worker), $0.40;
- the admission's transaction of at least the job, the balance and its \`reserve\` entry (a
  transactional write is two write units per KB): 6 WRU;
- the settlement's transaction of at least the job with its result and its \`commit\` entry:
  6 WRU (a settled \`plate.read\` job item is 1,130 bytes, so two units a write; 4 WRU if it were
  squeezed under 1 KB);
- one index entry of the job at each of its two writes, so that \`GET /v1/jobs\` can list it
  newest first: 2 WRU.

That is 14 WRU, $8.75, and $12.65 in all, before anything else a job does (with a job item under
1 KB, $11.40, and two Lambda invocations of 50 ms at 512 MB add $0.67). Measured here, the
rest is the WRU figure of the first row (the usage row, the rate-limit counter, the outbox event
and its index entry, the sweepers' index, the check that no webhook endpoint listens), two Lambda
durations, the work message, the Pipe and four log lines.

What a job writes now:

- at admission, one transaction of four items: the job, the balance (its update also carries the
  keys version that makes a cached key's revocation hold, \`docs/internals/idempotency-and-rate-limits.md\`),
  the \`reserve\` ledger entry and the rate-limit counter;
- at settlement, one transaction: the job with its result, the usage row (every counter of the job
  at once, \`requests\` included), the \`commit\` entry, the balance and the \`release\` entry when
  part of the reservation is returned, and the outbox event (an event's \`data.job\` is the whole
  job, stored compressed), with the check that no webhook endpoint listens;
- the index entries of the job (its mode's list and, while it is active, the sweepers' index) and
  of the event (the organisation's event list).

Done in this issue:

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
  $27.67 → $21.40. (DynamoDB Local reported 8 WRU for the old six-item admission transaction,
  before the 2 added for its \`ConditionCheck\`, and 8 for the new four-item one: one of the old
  transaction's five writes went uncounted, which AWS bills as 2 WRU, so the saving on AWS is
  about 4 WRU.)

Together: \`plate.read\` from $43.22 to the figure above, an inspection from $3,638.71.

Where more could come from, each with what it gives up:

- keep a \`job.succeeded\` / \`job.failed\` event's \`data.job\` by reference and build it from the
  settled job when delivering (the job no longer changes then, but a redaction and retention
  must then treat the event and the job as one);
- write the job's result to S3 and keep a key in the table (smaller job items, one more S3 write);
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
