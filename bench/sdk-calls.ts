import { Readable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type DocumentTransactItem, HotPathCalls } from '../lambdas/adapters/dynamodb/hot-path-calls.js';
import { percentile } from './stats.js';

/** Answers every request at once with a canned response: what is left is the SDK's own CPU. */
function cannedHandler(body: string, contentType: string) {
  return {
    handle: async () => ({
      response: {
        statusCode: 200,
        headers: { 'content-type': contentType, etag: '"e"', 'x-amzn-requestid': 'r' },
        body: Readable.from([Buffer.from(body)]),
      },
    }),
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
  };
}

const COMMON = {
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:1',
  credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
};
const JSON_TYPE = 'application/x-amz-json-1.0';

/** Six items shaped like an admission's: the job, the balance, the ledger entry, the usage row, the counter, the key check. */
function admissionItems(n: number): DocumentTransactItem[] {
  const TableName = 'bench';
  return [
    {
      Put: {
        TableName,
        Item: {
          pk: `JOB#${n}`,
          sk: '#',
          status: 'queued',
          endpoint: 'plate.read',
          params: { region: 'eu' },
          input: { key: `in/${n}`, bytes: 6000 },
          credits: { reserved: 1, charged: null },
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName,
        Key: { pk: 'BAL#org', sk: '#' },
        UpdateExpression: 'ADD amount :delta',
        ConditionExpression: 'amount >= :needed',
        ExpressionAttributeValues: { ':delta': -1, ':needed': 1 },
      },
    },
    {
      Put: {
        TableName,
        Item: {
          pk: 'LEDGER#org',
          sk: `led_${n}`,
          type: 'reserve',
          amount: -1,
          job_id: `job_${n}`,
          description: undefined,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName,
        Key: { pk: 'USAGE#org', sk: 'plate.read' },
        UpdateExpression: 'ADD requests :one',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
    {
      Update: {
        TableName,
        Key: { pk: 'RL#org', sk: '#' },
        UpdateExpression: 'ADD hits :one',
        ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': 600 },
      },
    },
    { ConditionCheck: { TableName, Key: { pk: 'SECRET#h', sk: '#' }, ConditionExpression: 'attribute_exists(pk)' } },
  ];
}

interface CallShape {
  name: string;
  before: () => Promise<unknown>;
  after: () => Promise<unknown>;
}

function shapes(): CallShape[] {
  const dynamodb = (cacheMiddleware: boolean) =>
    new DynamoDBClient({ ...COMMON, cacheMiddleware, requestHandler: cannedHandler('{}', JSON_TYPE) as never });
  const documents = DynamoDBDocumentClient.from(dynamodb(false), { marshallOptions: { removeUndefinedValues: true } });
  const hot = new HotPathCalls(dynamodb(true));
  const s3 = (settings: { cacheMiddleware?: boolean; requestChecksumCalculation?: 'WHEN_REQUIRED' }) =>
    new S3Client({
      ...COMMON,
      forcePathStyle: true,
      ...settings,
      requestHandler: cannedHandler('', 'application/xml') as never,
    });
  // after: as lambdas/composition/container.ts makes it (no CRC32 of the body: no call of ours requires one)
  const [s3Before, s3After] = [s3({}), s3({ cacheMiddleware: true, requestChecksumCalculation: 'WHEN_REQUIRED' })];
  const sqsAnswer = JSON.stringify({ MessageId: 'm', MD5OfMessageBody: 'b326b5062b2f0e69046810717534cb09' });
  const sqs = (cacheMiddleware: boolean) =>
    new SQSClient({ ...COMMON, cacheMiddleware, requestHandler: cannedHandler(sqsAnswer, JSON_TYPE) as never });
  const [sqsBefore, sqsAfter] = [sqs(false), sqs(true)];
  const image = Buffer.alloc(6000, 7);
  let n = 0;
  const put = (client: S3Client) =>
    client.send(
      new PutObjectCommand({ Bucket: 'bench', Key: `in/${(n += 1)}`, Body: image, ContentType: 'image/png' }),
    );
  const send = (client: SQSClient) =>
    client.send(new SendMessageCommand({ QueueUrl: 'http://127.0.0.1:1/000000000000/work', MessageBody: 'true' }));
  const key = { pk: 'JOB#1', sk: '#' };
  return [
    {
      name: 'admission transaction (6 items)',
      before: () => documents.send(new TransactWriteCommand({ TransactItems: admissionItems((n += 1)) })),
      after: () => hot.transactWrite(admissionItems((n += 1))),
    },
    {
      name: 'read by key (job, counter)',
      before: () => documents.send(new GetCommand({ TableName: 'bench', Key: key, ConsistentRead: true })),
      after: () => hot.getItem({ TableName: 'bench', Key: key, ConsistentRead: true }),
    },
    { name: 'input PutObject (6 KB)', before: () => put(s3Before), after: () => put(s3After) },
    { name: 'work SendMessage', before: () => send(sqsBefore), after: () => send(sqsAfter) },
  ];
}

export interface SdkCallRow {
  name: string;
  beforeUs: number;
  afterUs: number;
}

/** CPU per call, in µs: the median over `rounds` interleaved rounds of `calls` sequential calls. */
async function cpuPerCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await call();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

/**
 * The AWS SDK's own CPU per call on the admission's path, against a handler that answers at once:
 * "before" as the calls were sent (the document client; S3 and SQS clients resolving their
 * middleware stack on every call), "after" as they are now (`HotPathCalls` and clients with
 * `cacheMiddleware`). On Lambda at 512 MB a CPU millisecond here is about three of wall time.
 */
export async function measureSdkCalls(rounds = 9, calls = 300): Promise<SdkCallRow[]> {
  const rows: SdkCallRow[] = [];
  for (const shape of shapes()) {
    for (let i = 0; i < 200; i++) await Promise.all([shape.before(), shape.after()]);
    const before: number[] = [];
    const after: number[] = [];
    for (let round = 0; round < rounds; round++) {
      before.push(await cpuPerCall(shape.before, calls));
      after.push(await cpuPerCall(shape.after, calls));
    }
    const median = (samples: number[]) =>
      Math.round(
        percentile(
          [...samples].sort((a, b) => a - b),
          50,
        ),
      );
    rows.push({ name: shape.name, beforeUs: median(before), afterUs: median(after) });
  }
  return rows;
}

export function formatSdkCallReport(rows: readonly SdkCallRow[]): string {
  const total = (pick: (row: SdkCallRow) => number) => rows.reduce((sum, row) => sum + pick(row), 0);
  return [
    '| call | before (µs CPU) | after (µs CPU) |',
    '|---|---|---|',
    ...rows.map((row) => `| ${row.name} | ${row.beforeUs} | ${row.afterUs} |`),
    `| one admission (each once) | ${total((row) => row.beforeUs)} | ${total((row) => row.afterUs)} |`,
  ].join('\n');
}
