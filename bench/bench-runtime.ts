import { type Runtime, type RuntimeOptions, startRuntime } from '../local/runtime.js';
import { startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from '../local/stand-ins/object-and-queue-server.js';
import { tapClient } from './call-counter.js';

/**
 * The local runtime in process on its own DynamoDB Local and S3/SQS stand-in, every SDK client
 * tapped for counting, the sweeper off unless `options` say otherwise; `stop` ends all three.
 * `inProcessQueues`: the queue loops and sends call the stand-in queue in process, as `npm start`'s
 * do (local/main.ts), rather than over the SDK.
 */
export async function startBenchRuntime(
  options: Pick<RuntimeOptions, 'sweepIntervalMs' | 'config' | 'workerPaused'> & { inProcessQueues?: boolean } = {},
): Promise<{ runtime: Runtime; stop(): Promise<void> }> {
  const { inProcessQueues, ...runtimeOptions } = options;
  const dynamodb = await startDynamoDbLocal();
  const objectsAndQueues = await startObjectAndQueueServer();
  const runtime = await startRuntime({
    port: 0,
    standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
    sweepIntervalMs: 0,
    instrumentClient: tapClient,
    ...(inProcessQueues ? { queueTransport: objectsAndQueues.queues } : {}),
    ...runtimeOptions,
  });
  return {
    runtime,
    stop: async () => {
      await runtime.stop();
      await objectsAndQueues.stop();
      await dynamodb.stop();
    },
  };
}
