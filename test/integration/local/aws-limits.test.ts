import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQS_MAX_DELAY_SECONDS, SQS_MAX_MESSAGE_BYTES } from '../../../lambdas/adapters/sqs-queue.js';
import { OBJECT_BUCKET_CORS } from '../../../lib/object-bucket-cors.js';
import { INTEGRATION_TIMEOUT_MESSAGE } from '../../../lib/wait-ceiling.js';
import { ensureQueue } from '../../../local/provision.js';
import {
  type ObjectAndQueueServer,
  startObjectAndQueueServer,
} from '../../../local/stand-ins/object-and-queue-server.js';
import { submit } from '../../support/endpoint-calls.js';
import { call } from '../../support/http.js';
import { inMemoryServices } from '../../support/in-memory/services.js';
import { sharedTestService } from '../../support/service.js';

// Where the local runtime stands in for AWS, it refuses what AWS refuses (docs/internals/architecture.md,
// "AWS's limits, enforced locally"). Each case breaks one limit.

const INTEGRATION_TIMEOUT_MS = 1000;
const svc = sharedTestService({
  config: { waitCeilingMs: 10_000 },
  inferenceIntegrationTimeoutMs: INTEGRATION_TIMEOUT_MS,
});

describe('API Gateway’s integration timeout (the local API adapter)', () => {
  it('answers 504 in the service’s envelope when the function outlives it, and the function’s work still happens', async () => {
    const started = Date.now();
    const answer = await submit(svc.baseUrl, 'plate.read', svc.org.testKey, { 'X-Svc-Test-Scenario': 'wait_timeout' });
    // long before the 10 s wait ceiling would have answered
    expect(Date.now() - started).toBeLessThan(8000);
    expect(answer.status).toBe(504);
    expect(answer.body.error).toMatchObject({
      type: 'internal',
      code: 'internal_error',
      message: INTEGRATION_TIMEOUT_MESSAGE,
      param: null,
    });
    expect(answer.headers.get('request-id')).toBe(answer.body.error.request_id);
    // as on AWS, the function ran on: the job was admitted although the caller heard nothing of it
    await expect
      .poll(async () => (await call(svc.baseUrl, 'GET', '/v1/jobs?limit=5', { key: svc.org.testKey })).body.data)
      .toContainEqual(expect.objectContaining({ endpoint: 'plate.read', test_scenario: 'wait_timeout' }));
  });

  it('leaves a function that answers within it alone', async () => {
    const answer = await call(svc.baseUrl, 'GET', '/v1/endpoints', { key: svc.org.testKey });
    expect(answer.status).toBe(200);
  });
});

describe('SQS’s message size and delay (the queue stand-in)', () => {
  let sqs: SQSClient;
  let inProcess: ObjectAndQueueServer;
  let inProcessQueue: string;
  beforeAll(async () => {
    sqs = await svc.services.clients.sqs();
    inProcess = await startObjectAndQueueServer();
    inProcessQueue = `${inProcess.endpoint}/000000000000/limits`;
    const { SQSClient } = await import('@aws-sdk/client-sqs');
    const client = new SQSClient({
      region: 'us-east-1',
      endpoint: inProcess.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    inProcessQueue = await ensureQueue(client, 'limits', { MaximumMessageSize: String(SQS_MAX_MESSAGE_BYTES) });
    client.destroy();
  });
  afterAll(async () => {
    await inProcess?.stop();
  });

  it(`takes a message of ${SQS_MAX_MESSAGE_BYTES} bytes on the runtime’s queues and refuses one byte more`, async () => {
    const QueueUrl = svc.services.infrastructure.workQueueUrl;
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'x'.repeat(SQS_MAX_MESSAGE_BYTES) }));
    await expect(
      sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'x'.repeat(SQS_MAX_MESSAGE_BYTES + 1) })),
    ).rejects.toMatchObject({
      name: expect.stringMatching(/InvalidParameterValue/),
      message: /Message must be shorter than 262144 bytes/,
    });
    await expect(
      svc.services.workQueues.standard.send({ jobId: 'x'.repeat(SQS_MAX_MESSAGE_BYTES) } as never),
    ).rejects.toThrow(/shorter than 262144 bytes/);
  });

  it('refuses the longer message in the in-memory queue unit tests use too', async () => {
    const queue = inMemoryServices().workQueues.standard;
    await expect(queue.send({ jobId: 'x'.repeat(SQS_MAX_MESSAGE_BYTES) } as never)).rejects.toThrow(
      /shorter than 262144 bytes/,
    );
    await queue.send({ jobId: 'job_1' } as never);
    expect(queue.sent).toHaveLength(1);
  });

  it(`takes a delay of ${SQS_MAX_DELAY_SECONDS} s and refuses a longer one, over HTTP and in process`, async () => {
    const QueueUrl = svc.services.infrastructure.webhookQueueUrl;
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: '{}', DelaySeconds: SQS_MAX_DELAY_SECONDS }));
    await expect(
      sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: '{}', DelaySeconds: SQS_MAX_DELAY_SECONDS + 1 })),
    ).rejects.toMatchObject({
      name: expect.stringMatching(/InvalidParameterValue/),
      message: /DelaySeconds is invalid/,
    });
    await inProcess.queues.send({ QueueUrl: inProcessQueue, MessageBody: '{}', DelaySeconds: SQS_MAX_DELAY_SECONDS });
    await expect(
      inProcess.queues.send({ QueueUrl: inProcessQueue, MessageBody: '{}', DelaySeconds: SQS_MAX_DELAY_SECONDS + 1 }),
    ).rejects.toThrow(/DelaySeconds is invalid/);
    await expect(
      inProcess.queues.send({
        QueueUrl: inProcessQueue,
        MessageBody: 'x'.repeat(SQS_MAX_MESSAGE_BYTES + 1),
        DelaySeconds: 0,
      }),
    ).rejects.toThrow(/shorter than 262144 bytes/);
  });
});

describe('S3’s CORS on the object bucket (the object store stand-in)', () => {
  const ORIGIN = 'https://app.example';
  const preflight = (url: string, method: string, headers: string) =>
    fetch(url, {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers },
    });

  it('lets a browser PUT an upload’s bytes to its presigned URL from any origin, and nothing else', async () => {
    const created = await call(svc.baseUrl, 'POST', '/v1/uploads', {
      key: svc.org.testKey,
      json: { content_type: 'image/jpeg', size_bytes: 4 },
    });
    const url = created.body.url as string;
    const allowed = await preflight(url, 'PUT', 'content-type');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*');
    expect(allowed.headers.get('access-control-allow-methods')).toBe(OBJECT_BUCKET_CORS.allowedMethods.join(', '));
    expect(allowed.headers.get('access-control-allow-headers')).toBe('content-type');
    // S3 refuses a preflight for a method or a header the rule does not allow
    expect((await preflight(url, 'DELETE', 'content-type')).status).toBe(403);
    expect((await preflight(url, 'PUT', 'content-type, x-amz-acl')).status).toBe(403);
    const put = await fetch(url, {
      method: 'PUT',
      headers: { Origin: ORIGIN, 'Content-Type': 'image/jpeg' },
      body: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]),
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBe('*');
  });
});
