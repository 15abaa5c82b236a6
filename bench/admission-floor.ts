import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { CreateTableCommand, DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { freePort } from '../local/stand-ins/free-port.js';
import type { LocalProcess } from './local-process.js';
import { percentile } from './stats.js';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A real 64 × 48 RGB PNG (a gradient), a few KB: what a client's multipart upload looks like. */
export function samplePng(seed = 0): Buffer {
  const width = 64;
  const height = 48;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      rows.set([(x * 4 + seed) & 0xff, (y * 5) & 0xff, (x * y + seed) & 0xff], y * (1 + width * 3) + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngForm(seed: number): FormData {
  const form = new FormData();
  form.append('image', new Blob([samplePng(seed)], { type: 'image/png' }), `car-${seed}.png`);
  return form;
}

/** The floor's HTTP half: a bare node:http server in its own process that reads the body and answers a job-sized JSON. */
async function startBareServer(): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const source = `
    const body = JSON.stringify({ id: 'job_' + 'x'.repeat(22), object: 'job', status: 'queued', pad: 'y'.repeat(420) });
    require('node:http').createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => { Buffer.concat(chunks); res.writeHead(202, { 'Content-Type': 'application/json' }); res.end(body); });
    }).listen(${port}, '127.0.0.1', () => process.stdout.write('ready'));
    process.stdin.on('end', () => process.exit(0)); process.stdin.resume();`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((ready) => child.stdout.once('data', () => ready()));
  return { url: `http://127.0.0.1:${port}/v1/plate.read`, stop: () => child.kill() };
}

/** The floor's DynamoDB half: one bare 4-item transaction (job, balance, ledger, usage sized like admission's) on the same DynamoDB Local. */
async function bareTransaction(endpoint: string): Promise<() => Promise<void>> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const table = `floor-${randomUUID().slice(0, 8)}`;
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  let n = 0;
  return async () => {
    n += 1;
    await client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          {
            Put: {
              TableName: table,
              Item: { pk: { S: `JOB#${n}` }, body: { S: 'j'.repeat(900) } },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: table,
              Key: { pk: { S: 'BALANCE' } },
              UpdateExpression: 'ADD balance :d',
              ExpressionAttributeValues: { ':d': { N: '-1' } },
            },
          },
          { Put: { TableName: table, Item: { pk: { S: `LEDGER#${n}` }, body: { S: 'l'.repeat(200) } } } },
          {
            Update: {
              TableName: table,
              Key: { pk: { S: 'USAGE' } },
              UpdateExpression: 'ADD requests :one',
              ExpressionAttributeValues: { ':one': { N: '1' } },
            },
          },
        ],
      }),
    );
  };
}

export interface FloorReport {
  calls: number;
  admissionP50: number;
  admissionP99: number;
  httpP50: number;
  transactionP50: number;
  floorP50: number;
  ratio: number;
}

async function timed(action: () => Promise<void>, into: number[]): Promise<void> {
  const t0 = performance.now();
  await action();
  into.push(performance.now() - t0);
}

/**
 * Issue 13's measure, side by side in one run on `npm start`'s own process: test-mode multipart PNG
 * admissions at concurrency 1 with the worker on, interleaved with the floor (a bare loopback HTTP
 * round trip with the same body + a bare 4-item transaction on the same DynamoDB Local).
 */
export async function measureAdmissionFloor(local: LocalProcess, calls = 300): Promise<FloorReport> {
  const bare = await startBareServer();
  const transaction = await bareTransaction(local.standIns.dynamodb);
  const headers = { Authorization: `Bearer ${local.credentials.test_key}` };
  const admission: number[] = [];
  const http: number[] = [];
  const tx: number[] = [];
  try {
    const admit = async () => {
      const response = await fetch(`${local.credentials.base_url}/v1/plate.read`, {
        method: 'POST',
        headers,
        body: pngForm(admission.length),
      });
      const text = await response.text();
      if (response.status !== 202) throw new Error(`admission answered ${response.status}: ${text}`);
    };
    const post = async () => {
      const response = await fetch(bare.url, { method: 'POST', headers, body: pngForm(http.length) });
      await response.text();
    };
    const warmUp = Math.min(50, calls);
    for (let i = 0; i < warmUp; i++) {
      await admit();
      await post();
      await transaction();
    }
    for (let i = 0; i < calls; i++) {
      await timed(admit, admission);
      await timed(post, http);
      await timed(transaction, tx);
    }
  } finally {
    bare.stop();
  }
  const p = (samples: number[], q: number) =>
    percentile(
      [...samples].sort((a, b) => a - b),
      q,
    );
  const floorP50 = p(http, 50) + p(tx, 50);
  return {
    calls,
    admissionP50: p(admission, 50),
    admissionP99: p(admission, 99),
    httpP50: p(http, 50),
    transactionP50: p(tx, 50),
    floorP50,
    ratio: p(admission, 50) / floorP50,
  };
}

export function formatFloorReport(report: FloorReport): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return [
    `admission p50 ${ms(report.admissionP50)} (p99 ${ms(report.admissionP99)}) over ${report.calls} calls`,
    `floor p50 ${ms(report.floorP50)} = bare HTTP round trip ${ms(report.httpP50)} + bare 4-item transaction ${ms(report.transactionP50)}`,
    `ratio ${report.ratio.toFixed(2)} x the floor (goal <= 1.5 x)`,
  ].join('\n');
}
