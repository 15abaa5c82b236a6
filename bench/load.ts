import '../local/quiet-warnings.js';
import autocannon from 'autocannon';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { depositCredits } from '../lambdas/domain/money/credits.js';
import { startRuntime } from '../local/runtime.js';
import { startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from '../local/stand-ins/object-and-queue-server.js';

/**
 * `npm run bench:load` (LOAD_SECONDS=10): mixed traffic on one local runtime, one autocannon
 * instance per route running side by side, so each route's figures are measured under the
 * others' load. Prints throughput, p50/p99 and the error rate per route, then the ceiling the
 * balance item puts on one organisation and mode on AWS.
 */
const seconds = Number(process.env.LOAD_SECONDS ?? 10);

function multipart(boundary: string): string {
  const bytes = Buffer.alloc(2048, 7);
  bytes[0] = 0xff;
  bytes[1] = 0xd8;
  return `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="car.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${bytes.toString('latin1')}\r\n--${boundary}--\r\n`;
}

async function main(): Promise<void> {
  const dynamodb = await startDynamoDbLocal();
  const objectsAndQueues = await startObjectAndQueueServer();
  const runtime = await startRuntime({
    port: 0,
    standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
  });
  try {
    const org = await createOrganization(runtime.services, { name: 'Load', plan: 'enterprise' });
    await depositCredits(runtime.services, org.organization.id, false, 100_000_000, 'load');
    const key = { Authorization: `Bearer ${org.testKey}` };
    const jwt = { Authorization: `Bearer ${await runtime.issuer.token(org.organization.id, 'owner')}` };
    const boundary = 'loadboundary';
    const seed = await fetch(`${runtime.baseUrl}/v1/plate.read`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: multipart(boundary),
    });
    const jobId = ((await seed.json()) as { id: string }).id;
    const routes: Array<{ name: string; connections: number; path: string; options: Partial<autocannon.Options> }> = [
      {
        name: 'POST /v1/plate.read (multipart)',
        connections: 8,
        path: '/v1/plate.read',
        options: {
          method: 'POST',
          headers: { ...key, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: multipart(boundary),
        },
      },
      {
        name: 'POST /v1/pricing.vehicle?wait=true',
        connections: 2,
        path: '/v1/pricing.vehicle?wait=true',
        options: {
          method: 'POST',
          headers: { ...key, 'content-type': 'application/json' },
          body: JSON.stringify({ make: 'Volkswagen', model: 'Golf', year: 2019 }),
        },
      },
      {
        name: 'GET /v1/jobs/{id}',
        connections: 2,
        path: `/v1/jobs/${jobId}`,
        options: { method: 'GET', headers: key },
      },
      { name: 'GET /v1/jobs', connections: 2, path: '/v1/jobs?limit=20', options: { method: 'GET', headers: key } },
      { name: 'GET /v1/endpoints', connections: 2, path: '/v1/endpoints', options: { method: 'GET', headers: key } },
      {
        name: 'GET /mgmt/v1/organization',
        connections: 2,
        path: '/mgmt/v1/organization',
        options: { method: 'GET', headers: jwt },
      },
    ];
    const results = await Promise.all(
      routes.map((route) =>
        autocannon({
          url: `${runtime.baseUrl}${route.path}`,
          connections: route.connections,
          duration: seconds,
          ...route.options,
        }),
      ),
    );
    console.log(`## Mixed load on one local runtime, ${seconds} s, all routes at once`);
    console.log(
      `${'route'.padEnd(40)} ${'req/s'.padStart(7)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'errors'.padStart(8)}`,
    );
    routes.forEach((route, i) => {
      const result = results[i]!;
      const total = result.requests.total;
      // non-2xx: a polled job answers 429 past one poll a second, by design
      const failed = result.non2xx + result.errors + result.timeouts;
      console.log(
        `${route.name.padEnd(40)} ${result.requests.average.toFixed(0).padStart(7)} ${`${result.latency.p50} ms`.padStart(7)} ${`${result.latency.p99} ms`.padStart(7)} ${`${total ? ((100 * failed) / total).toFixed(1) : '0.0'} %`.padStart(8)}`,
      );
    });
    console.log(
      '(GET /v1/jobs/{id} answers 429 to all but one poll a second per job: its error rate is the limit at work.)',
    );
    console.log('\n## The balance item: one organisation and mode on AWS');
    const itemWritesPerSecond = 1000;
    const transactionalWritesPerJob = 2 * 2;
    console.log(
      `one DynamoDB item takes ~${itemWritesPerSecond} writes/s; admission and settlement each update the balance inside a transaction (2 writes each): ceiling ≈ ${itemWritesPerSecond / transactionalWritesPerJob} jobs/s per organisation and mode, above the enterprise plan's 100 admissions/s`,
    );
  } finally {
    await runtime.stop();
    await objectsAndQueues.stop();
    await dynamodb.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
