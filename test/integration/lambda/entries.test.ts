import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { containerFromEnvironment, waitCeilingFromEnvironment } from '../../../lambdas/composition/container.js';
import type { RouteHandler } from '../../../lambdas/http/route-handler.js';
import { ROUTES } from '../../../lambdas/http/routes/index.js';
import { ensureTable } from '../../../local/provision.js';
import { loadRouteHandler } from '../../../local/route-handlers.js';

/**
 * The Lambda entry path, as AWS runs it: each function's module is imported on its own, its
 * `handler` export builds its services from the stack's environment on the first event.
 */
const standIns = inject('standIns');
const tableName = `lambda-${randomBytes(4).toString('hex')}`;

/** The environment as it was before this file set the stack's variables, restored after it. */
let outside: NodeJS.ProcessEnv;
beforeAll(async () => {
  outside = { ...process.env };
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: standIns.dynamodb,
    AWS_ENDPOINT_URL_S3: standIns.s3,
    AWS_ENDPOINT_URL_SQS: standIns.sqs,
    TABLE_NAME: tableName,
    BUCKET_NAME: `${tableName}-files`,
    WORK_QUEUE_URL: `${standIns.sqs}/000000000000/${tableName}-work`,
    WEBHOOK_QUEUE_URL: `${standIns.sqs}/000000000000/${tableName}-webhooks`,
    DOCS_URL: 'https://docs.example/docs',
    // as the stack sets it with `-c integrationTimeoutSeconds` (lib/wait-ceiling.ts)
    WAIT_CEILING_SECONDS: '30',
  });
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: standIns.dynamodb,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await ensureTable(client, tableName);
  client.destroy();
});
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in outside)) delete process.env[name];
  Object.assign(process.env, outside);
});

const context = { awsRequestId: 'lambda-test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

function event(
  method: string,
  path: string,
  resource: string,
  headers: Record<string, string> = {},
): APIGatewayProxyEvent {
  return {
    resource,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'lambda-test' } as APIGatewayProxyEvent['requestContext'],
    body: null,
    isBase64Encoded: false,
  };
}

describe('Lambda entry points', () => {
  it('every route names the route module whose handler serves it', async () => {
    for (const route of ROUTES) {
      const handler: RouteHandler = await loadRouteHandler(route);
      expect(typeof handler, route.id).toBe('function');
    }
  });

  it('an inference function picks its route from the event and answers the envelope without a key', async () => {
    const { handler } = await import('../../../lambdas/http/routes/inference/create-job.js');
    const result = await handler(event('POST', '/v1/vin.read', '/v1/vin.read'), context);
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body).error).toMatchObject({
      code: 'invalid_api_key',
      doc_url: 'https://docs.example/docs/errors/invalid_api_key',
    });
    expect(result.headers?.['Request-Id']).toMatch(/^req_/);
  });

  it('a function learns the wait=true ceiling from WAIT_CEILING_SECONDS, and keeps the default without it', () => {
    expect(containerFromEnvironment().config.waitCeilingMs).toBe(30_000);
    expect(waitCeilingFromEnvironment({ WAIT_CEILING_SECONDS: '28' })).toEqual({ waitCeilingMs: 28_000 });
    expect(waitCeilingFromEnvironment({})).toEqual({});
    expect(() => waitCeilingFromEnvironment({ WAIT_CEILING_SECONDS: 'soon' })).toThrow(
      /WAIT_CEILING_SECONDS must be a positive number/,
    );
  });

  it("the catch-all function answers any method on any path with the service's own 404 and Request-Id", async () => {
    const { handler } = await import('../../../lambdas/http/routes/internal/route-not-found.js');
    for (const [method, path, resource] of [
      ['PUT', '/v2/anything', '/{proxy+}'],
      ['GET', '/', '/'],
    ] as const) {
      const result = await handler(event(method, path, resource), context);
      expect(result.statusCode, path).toBe(404);
      const { error } = JSON.parse(result.body);
      expect(error).toMatchObject({ code: 'route_not_found', message: `No route ${method} ${path}.` });
      expect(result.headers?.['Request-Id']).toMatch(/^req_/);
      expect(error.request_id).toBe(result.headers?.['Request-Id']);
    }
  });

  it('the OpenAPI function answers the document built from the route definitions', async () => {
    const { handler } = await import('../../../lambdas/http/routes/internal/get-open-api.js');
    const result = await handler(event('GET', '/v1/openapi.json', '/v1/openapi.json'), context);
    expect(result.statusCode).toBe(200);
    expect(Object.keys(JSON.parse(result.body).paths)).toContain('/v1/plate.read');
  });

  it('a management function refuses an API key as a bearer token', async () => {
    const { handler } = await import('../../../lambdas/http/routes/management/get-organization.js');
    const result = await handler(
      event('GET', '/mgmt/v1/organization', '/mgmt/v1/organization', { Authorization: 'Bearer chk_test_x' }),
      context,
    );
    expect([401, 503]).toContain(result.statusCode);
  });

  it('the work-queue consumer drops a malformed message and reports no failure for it', async () => {
    const { handler } = await import('../../../lambdas/workers/work-queue-consumer.js');
    const outcome = await handler({ Records: [{ messageId: 'm1', body: 'not json' }] } as never);
    expect(outcome).toEqual({ batchItemFailures: [] });
  });

  it('the webhook delivery function drops a malformed message and ends an unknown delivery without failure', async () => {
    const { handler } = await import('../../../lambdas/workers/webhook-delivery.js');
    const outcome = await handler({
      Records: [
        { messageId: 'm1', body: 'not json' },
        { messageId: 'm2', body: JSON.stringify({ delivery_id: 'whd_1111111111111111111111' }) },
        { messageId: 'm3', body: JSON.stringify({ event_id: 'evt_1111111111111111111111' }) },
      ],
    } as never);
    expect(outcome).toEqual({ batchItemFailures: [] });
  });

  it('the sweeper runs against the table and finds nothing due', async () => {
    const { handler } = await import('../../../lambdas/workers/sweeper.js');
    expect(await handler({}, { getRemainingTimeInMillis: () => 60_000 })).toMatchObject({
      expired: 0,
      redriven: 0,
      leftForNextRun: false,
    });
  });

  it('the sweeper does nothing while another run holds its lease, and sweeps once that run lets go', async () => {
    const { handler } = await import('../../../lambdas/workers/sweeper.js');
    const { SWEEPER_LEASE } = await import('../../../lambdas/domain/sweeper/sweep.js');
    const services = containerFromEnvironment();
    const now = services.clock.nowMs();
    expect(await services.leases.take(SWEEPER_LEASE, 'another-run', now + 60_000, now)).toBe(true);
    expect(await handler({}, { getRemainingTimeInMillis: () => 60_000 })).toEqual({ skipped: true });
    await services.leases.release(SWEEPER_LEASE, 'another-run');
    expect(await handler({}, { getRemainingTimeInMillis: () => 60_000 })).toMatchObject({ redriven: 0 });
  });

  it('the retention worker runs against the table and finds no organisation to clean', async () => {
    const { handler } = await import('../../../lambdas/workers/retention.js');
    expect(await handler({}, { getRemainingTimeInMillis: () => 900_000 })).toEqual({
      organizations: 0,
      jobsRedacted: 0,
      filesDeleted: 0,
      complete: true,
    });
  });
});
