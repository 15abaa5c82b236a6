import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Services } from '../domain/ports/services.js';
import type { TestBackend } from '../domain/jobs/processing.js';
import { consumeWorkMessage } from '../workers/work-queue-consumer.js';

export interface WorkerLoop {
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

const MAX_IN_FLIGHT = 32;

/** Plays the part of the SQS event source mapping: receive, run the consumer, delete on success. */
export function startWorkerLoop(services: Services, sqs: SQSClient, queueUrl: string, backend: TestBackend, options: { paused?: boolean } = {}): WorkerLoop {
  let stopped = false;
  let paused = options.paused ?? false;
  const inFlight = new Set<Promise<void>>();
  const idle = () => new Promise((resolve) => setTimeout(resolve, 100));

  const handle = async (body: string, receiptHandle: string) => {
    try {
      await consumeWorkMessage(services, backend, body);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle }));
    } catch (error) {
      // left on the queue: it becomes visible again after the visibility timeout and is retried
      services.log.error('work message failed', { error: String(error) });
    }
  };

  const loop = async () => {
    while (!stopped) {
      if (paused || inFlight.size >= MAX_IN_FLIGHT) {
        await idle();
        continue;
      }
      try {
        const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
        if (paused || stopped) {
          // received during a pause: hand the messages straight back, untouched
          await Promise.all(
            (out.Messages ?? []).map((m) => sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 }))),
          );
          continue;
        }
        for (const message of out.Messages ?? []) {
          const task = handle(message.Body ?? '', message.ReceiptHandle!).finally(() => inFlight.delete(task));
          inFlight.add(task);
        }
      } catch (error) {
        if (!stopped) services.log.warn('work queue receive failed', { error: String(error) });
        await idle();
      }
    }
  };
  const running = loop();

  return {
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    stop: async () => {
      stopped = true;
      await running;
      await Promise.allSettled([...inFlight]);
    },
  };
}
