import { DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Services } from '../domain/ports/services.js';
import { consumeWebhookMessage } from '../workers/webhook-delivery.js';

export interface WebhookLoop {
  stop(): Promise<void>;
}

/** Each message runs on its own, so a hanging receiver never holds up deliveries to others. */
const MAX_IN_FLIGHT = 64;

/** Plays the SQS event source mapping of the delivery Lambda: receive, consume, delete on success. */
export function startWebhookLoop(services: Services, sqs: SQSClient, queueUrl: string): WebhookLoop {
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const idle = () => new Promise((resolve) => setTimeout(resolve, 50));

  const handle = async (body: string, receiptHandle: string) => {
    try {
      await consumeWebhookMessage(services, body);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle }));
    } catch (error) {
      // left on the queue: visible again after its visibility timeout
      services.log.error('webhook message failed', { error: String(error) });
    }
  };

  const loop = async () => {
    while (!stopped) {
      if (inFlight.size >= MAX_IN_FLIGHT) {
        await idle();
        continue;
      }
      try {
        const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 60 }));
        for (const message of out.Messages ?? []) {
          const task = handle(message.Body ?? '', message.ReceiptHandle!).finally(() => inFlight.delete(task));
          inFlight.add(task);
        }
      } catch (error) {
        if (!stopped) services.log.warn('webhook queue receive failed', { error: String(error) });
        await idle();
      }
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopped = true;
      await running;
      await Promise.allSettled([...inFlight]);
    },
  };
}
