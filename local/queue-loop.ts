import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { TestBackend } from '../lambdas/domain/jobs/processing.js';
import { logFailure } from '../lambdas/domain/kernel/failure-log.js';
import type { Log, Services } from '../lambdas/domain/ports/services.js';
import { consumeWebhookMessage } from '../lambdas/workers/webhook-delivery.js';
import { consumeWorkMessage } from '../lambdas/workers/work-queue-consumer.js';

/**
 * The three SQS calls an event source mapping makes, which is all a loop needs of its queue, and
 * the send our queues make (`SqsQueue`). Over the SDK by default; in process when the stand-in
 * queue runs in the same process (`npm start`): on AWS the first three are the mapping's, not our
 * Lambdas', and the admission's send is the table stream's Pipe, so making them in process takes
 * the stand-in's HTTP, signing and JSON off the cores the service shares. `SqsQueue` still builds
 * every message; only the way to the queue differs.
 */
export interface QueueTransport {
  receive(input: {
    QueueUrl: string;
    MaxNumberOfMessages: number;
    WaitTimeSeconds: number;
    VisibilityTimeout?: number;
    /** `All` for the attributes an SQS event record carries */
    MessageSystemAttributeNames?: 'All'[];
    MessageAttributeNames?: 'All'[];
  }): Promise<{ Messages?: ReceivedMessage[] }>;
  delete(input: { QueueUrl: string; ReceiptHandle: string }): Promise<unknown>;
  changeVisibility(input: { QueueUrl: string; ReceiptHandle: string; VisibilityTimeout: number }): Promise<unknown>;
  send(input: { QueueUrl: string; MessageBody: string; DelaySeconds?: number }): Promise<unknown>;
}

export interface ReceivedMessage {
  MessageId?: string;
  ReceiptHandle?: string;
  Body?: string;
  MD5OfBody?: string;
  Attributes?: Record<string, string>;
  MessageAttributes?: Record<string, unknown>;
}

export function sdkQueueTransport(sqs: SQSClient): QueueTransport {
  return {
    receive: (input) => sqs.send(new ReceiveMessageCommand(input)),
    delete: (input) => sqs.send(new DeleteMessageCommand(input)),
    changeVisibility: (input) => sqs.send(new ChangeMessageVisibilityCommand(input)),
    send: (input) => sqs.send(new SendMessageCommand(input)),
  };
}

export interface QueueLoop {
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

export interface QueueLoopOptions {
  /** what it plays, for its log lines (`work`, `webhook`) */
  name: string;
  /** messages handled at once; each runs on its own, so a slow one holds up no other */
  maxInFlight: number;
  paused?: boolean;
  /** seconds a received message stays hidden (default: the queue's) */
  visibilityTimeout?: number;
}

/**
 * The polling core of every loop: receive up to ten, hand them to `dispatch` (which starts the
 * tasks that consume them), and receive again while fewer than `maxInFlight` tasks run.
 */
function pollQueue(
  log: Log,
  queue: QueueTransport,
  queueUrl: string,
  options: QueueLoopOptions & { attributes?: boolean },
  dispatch: (messages: ReceivedMessage[]) => Array<Promise<void>>,
): QueueLoop {
  let stopped = false;
  let paused = options.paused ?? false;
  const inFlight = new Set<Promise<void>>();
  const idle = () => new Promise((resolve) => setTimeout(resolve, 50));

  const loop = async () => {
    while (!stopped) {
      if (paused || inFlight.size >= options.maxInFlight) {
        await idle();
        continue;
      }
      try {
        const out = await queue.receive({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          ...(options.visibilityTimeout ? { VisibilityTimeout: options.visibilityTimeout } : {}),
          ...(options.attributes
            ? { MessageSystemAttributeNames: ['All' as const], MessageAttributeNames: ['All' as const] }
            : {}),
        });
        if (paused || stopped) {
          // received during a pause: hand the messages straight back, untouched
          await Promise.all(
            (out.Messages ?? []).map((m) =>
              queue.changeVisibility({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 }),
            ),
          );
          continue;
        }
        if (!out.Messages?.length) continue;
        for (const started of dispatch(out.Messages)) {
          const task: Promise<void> = started.finally(() => inFlight.delete(task));
          inFlight.add(task);
        }
      } catch (error) {
        if (!stopped) log.warn(`${options.name} queue receive failed`, { error: String(error) });
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

/**
 * Plays an SQS event source mapping locally: receive, run the consumer, delete on success. A
 * message whose consumer throws stays on the queue and comes back after its visibility timeout.
 */
export function startQueueLoop(
  log: Log,
  queue: QueueTransport,
  queueUrl: string,
  consume: (body: string) => Promise<void>,
  options: QueueLoopOptions,
): QueueLoop {
  const handle = async (body: string, receiptHandle: string) => {
    try {
      await consume(body);
      await queue.delete({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle });
    } catch (error) {
      logFailure(log, `${options.name} message failed`, error);
    }
  };
  return pollQueue(log, queue, queueUrl, options, (messages) =>
    messages.map((message) => handle(message.Body ?? '', message.ReceiptHandle!)),
  );
}

/**
 * Plays an SQS event source mapping that hands a whole batch to one call, as Lambda's does:
 * `consumeBatch` answers the receipt handles to keep (a partial-batch answer, or all of them when
 * the call failed); every other message of the batch is deleted.
 */
export function startBatchQueueLoop(
  log: Log,
  queue: QueueTransport,
  queueUrl: string,
  consumeBatch: (messages: ReceivedMessage[]) => Promise<ReadonlySet<string>>,
  options: QueueLoopOptions,
): QueueLoop {
  const handle = async (messages: ReceivedMessage[]) => {
    try {
      const kept = await consumeBatch(messages);
      await Promise.all(
        messages
          .filter((message) => !kept.has(message.ReceiptHandle!))
          .map((message) => queue.delete({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! })),
      );
    } catch (error) {
      logFailure(log, `${options.name} batch failed`, error);
    }
  };
  return pollQueue(log, queue, queueUrl, { ...options, attributes: true }, (messages) => [handle(messages)]);
}

export type WorkerLoop = QueueLoop;

/** Plays the work queues' event source mappings: one consumer per lane, in process, each with its own concurrency. */
export function startWorkerLoop(
  services: Services,
  queue: QueueTransport,
  queueUrls: readonly string[],
  backend: TestBackend,
  options: { paused?: boolean } = {},
): WorkerLoop {
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

export type WebhookLoop = QueueLoop;

/** Plays the delivery Lambda's event source mapping; many messages at once, so a hanging receiver holds up no other. */
export function startWebhookLoop(services: Services, queue: QueueTransport, queueUrl: string): WebhookLoop {
  return startQueueLoop(services.log, queue, queueUrl, (body) => consumeWebhookMessage(services, body), {
    name: 'webhook',
    maxInFlight: 64,
    visibilityTimeout: 60,
  });
}
