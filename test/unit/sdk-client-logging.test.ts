import { afterAll, describe, expect, it } from 'vitest';
import { buildContainer } from '../../lambdas/container.js';

// the clients as the composition root makes them
const container = buildContainer({
  infrastructure: {
    region: 'eu-central-1',
    tableName: 'ais',
    bucketName: 'ais-files',
    workQueueUrl: 'http://127.0.0.1:4566/000000000000/work',
    webhookQueueUrl: 'http://127.0.0.1:4566/000000000000/webhooks',
    endpoints: { dynamodb: 'http://127.0.0.1:4566', s3: 'http://127.0.0.1:4566', sqs: 'http://127.0.0.1:4566' },
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  },
});
afterAll(async () => {
  (await container.clients.s3()).destroy();
  (await container.clients.sqs()).destroy();
});

describe('SDK clients of the composition root', () => {
  it('carry no per-call logger middleware, which walked every input and output to redact a log line nobody writes', async () => {
    const clients = [container.clients.dynamodb, container.clients.dynamodbHotPath, await container.clients.s3(), await container.clients.sqs()];
    for (const client of clients) {
      const stack = client.middlewareStack.identify();
      expect(stack.length).toBeGreaterThan(5);
      expect(stack.filter((name) => name.startsWith('loggerMiddleware'))).toEqual([]);
    }
  });
});
