import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Services } from '../domain/ports/services.js';
import type { TestBackend } from '../domain/jobs/processing.js';
import { consumeWorkMessage } from '../workers/work-queue-consumer.js';
import { startQueueLoop, type QueueLoop } from './queue-loop.js';

export type WorkerLoop = QueueLoop;

/** Plays the work queue's event source mapping: the consumer Lambda, in process. */
export function startWorkerLoop(services: Services, sqs: SQSClient, queueUrl: string, backend: TestBackend, options: { paused?: boolean } = {}): WorkerLoop {
  return startQueueLoop(
    services.log,
    sqs,
    queueUrl,
    async (body) => {
      await consumeWorkMessage(services, backend, body);
    },
    { name: 'work', maxInFlight: 32, paused: options.paused ?? false },
  );
}
