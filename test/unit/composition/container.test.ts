import { afterAll, describe, expect, it } from 'vitest';
import { buildContainer } from '../../../lambdas/composition/container.js';
import { offlineInfrastructure } from '../../support/container.js';

// the clients as the composition root makes them
const container = buildContainer({ infrastructure: offlineInfrastructure() });
afterAll(async () => {
  (await container.clients.s3()).destroy();
  (await container.clients.sqs()).destroy();
});

describe('SDK clients of the composition root', () => {
  it('carry no per-call logger middleware, which walked every input and output to redact a log line nobody writes', async () => {
    const clients = [
      container.clients.dynamodb,
      container.clients.dynamodbHotPath,
      await container.clients.s3(),
      await container.clients.sqs(),
    ];
    for (const client of clients) {
      const stack = client.middlewareStack.identify();
      expect(stack.length).toBeGreaterThan(5);
      expect(stack.filter((name) => name.startsWith('loggerMiddleware'))).toEqual([]);
    }
  });
});
