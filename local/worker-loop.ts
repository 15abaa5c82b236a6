import type { Services } from '../lambdas/domain/ports/services.js';
import type { TestBackend } from '../lambdas/domain/jobs/processing.js';
import { consumeWorkMessage } from '../lambdas/workers/work-queue-consumer.js';
import { startQueueLoop, type QueueLoop, type QueueTransport } from './queue-loop.js';

export type WorkerLoop = QueueLoop;

/** Plays the work queues' event source mappings: one consumer per lane, in process, each with its own concurrency. */
export function startWorkerLoop(services: Services, queue: QueueTransport, queueUrls: readonly string[], backend: TestBackend, options: { paused?: boolean } = {}): WorkerLoop {
  const loops = queueUrls.map((queueUrl, lane) =>
    startQueueLoop(
      services.log,
      queue,
      queueUrl,
      async (body) => {
        await consumeWorkMessage(services, backend, body);
      },
      { name: `work-${lane}`, maxInFlight: 32, paused: options.paused ?? false },
    ),
  );
  return {
    pause: () => {
      for (const loop of loops) loop.pause();
    },
    resume: () => {
      for (const loop of loops) loop.resume();
    },
    stop: async () => {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
  };
}
