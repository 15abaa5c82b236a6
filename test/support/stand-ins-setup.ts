import type { TestProject } from 'vitest/node';
import { buildDashboard } from '../../local/dashboard-site.js';
import type { StandInEndpoints } from '../../local/runtime.js';
import { startDynamoDbLocal } from '../../local/stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from '../../local/stand-ins/object-and-queue-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    standIns: StandInEndpoints;
  }
}

/** One DynamoDB Local and one fauxqs for the whole run; each test file provisions its own table, bucket and queue. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // once, before any runtime starts: every runtime serves this build under /dashboard
  await buildDashboard();
  const dynamodb = await startDynamoDbLocal();
  const objectsAndQueues = await startObjectAndQueueServer();
  project.provide('standIns', {
    dynamodb: dynamodb.endpoint,
    s3: objectsAndQueues.endpoint,
    sqs: objectsAndQueues.endpoint,
  });
  return async () => {
    await objectsAndQueues.stop();
    await dynamodb.stop();
  };
}
