import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLog } from '../../../lambdas/adapters/logger.js';
import { startQueueLoop } from '../../../local/queue-loop.js';
import {
  type ObjectAndQueueServer,
  startObjectAndQueueServer,
} from '../../../local/stand-ins/object-and-queue-server.js';
import { eventually } from '../../support/http.js';

// npm start's loops reach the stand-in queue in process: the same SQS semantics as over the SDK
let server: ObjectAndQueueServer;
let sqs: SQSClient;
beforeAll(async () => {
  server = await startObjectAndQueueServer();
  sqs = new SQSClient({
    region: 'us-east-1',
    endpoint: server.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});
afterAll(async () => {
  sqs.destroy();
  await server.stop();
});

async function queueWithVisibility(name: string, seconds: number): Promise<string> {
  return (
    await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: String(seconds) } }))
  ).QueueUrl!;
}

async function counts(queueUrl: string): Promise<{ visible: number; inFlight: number }> {
  const out = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return {
    visible: Number(out.Attributes?.ApproximateNumberOfMessages),
    inFlight: Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible),
  };
}

describe('the in-process queue transport of the local stand-in', () => {
  it('receives what the SDK sent, hides it while in flight, and deletes it for good', async () => {
    const queueUrl = await queueWithVisibility('transport-basics', 30);
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: '{"job_id":"job_1"}' }));
    const received = await server.queues.receive({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 });
    expect(received.Messages?.map((m) => m.Body)).toEqual(['{"job_id":"job_1"}']);
    expect(await counts(queueUrl)).toEqual({ visible: 0, inFlight: 1 });
    await server.queues.delete({ QueueUrl: queueUrl, ReceiptHandle: received.Messages![0]!.ReceiptHandle! });
    expect(await counts(queueUrl)).toEqual({ visible: 0, inFlight: 0 });
  });

  it('hands a message back at once when its visibility is set to zero', async () => {
    const queueUrl = await queueWithVisibility('transport-handback', 30);
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'again' }));
    const first = await server.queues.receive({ QueueUrl: queueUrl, MaxNumberOfMessages: 1, WaitTimeSeconds: 0 });
    await server.queues.changeVisibility({
      QueueUrl: queueUrl,
      ReceiptHandle: first.Messages![0]!.ReceiptHandle!,
      VisibilityTimeout: 0,
    });
    const second = await server.queues.receive({ QueueUrl: queueUrl, MaxNumberOfMessages: 1, WaitTimeSeconds: 1 });
    expect(second.Messages?.map((m) => m.Body)).toEqual(['again']);
  });

  it('long-polls: a waiting receive answers as soon as a message is sent', async () => {
    const queueUrl = await queueWithVisibility('transport-long-poll', 30);
    const startedMs = Date.now();
    const waiting = server.queues.receive({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 5 });
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'woken' }));
    expect((await waiting).Messages?.map((m) => m.Body)).toEqual(['woken']);
    expect(Date.now() - startedMs).toBeLessThan(2_000);
  });

  it('sends in process what the SDK would send: a message other consumers receive, held back for its delay', async () => {
    const queueUrl = await queueWithVisibility('transport-send', 30);
    await server.queues.send({ QueueUrl: queueUrl, MessageBody: '{"job_id":"job_2"}', DelaySeconds: 0 });
    expect((await counts(queueUrl)).visible).toBe(1);
    await server.queues.send({ QueueUrl: queueUrl, MessageBody: 'later', DelaySeconds: 1 });
    const now = await server.queues.receive({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 });
    expect(now.Messages?.map((m) => m.Body)).toEqual(['{"job_id":"job_2"}']);
    const delayed = await server.queues.receive({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 3 });
    expect(delayed.Messages?.map((m) => m.Body)).toEqual(['later']);
  });

  it('drives a queue loop: each message consumed once, then deleted; a failed one comes back after its visibility timeout', async () => {
    const queueUrl = await queueWithVisibility('transport-loop', 1);
    const seen: string[] = [];
    let failOnce = true;
    const loop = startQueueLoop(
      createLog('queue-loop-test', 'SILENT'),
      server.queues,
      queueUrl,
      async (body) => {
        seen.push(body);
        if (body === 'flaky' && failOnce) {
          failOnce = false;
          throw new Error('first attempt fails');
        }
      },
      { name: 'test', maxInFlight: 4 },
    );
    try {
      for (const body of ['a', 'b', 'flaky'])
        await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
      await eventually(async () => seen.filter((body) => body === 'flaky').length === 2, 10_000);
      await eventually(async () => {
        const now = await counts(queueUrl);
        return now.visible === 0 && now.inFlight === 0;
      });
      expect([...seen].sort()).toEqual(['a', 'b', 'flaky', 'flaky']);
    } finally {
      await loop.stop();
    }
  });
});
