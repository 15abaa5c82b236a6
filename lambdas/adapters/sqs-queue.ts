import type { SQSClient } from '@aws-sdk/client-sqs';
import { sqsSdk } from './aws-sdk.js';

/**
 * The largest message our queues take: the stack declares it on each (SQS's own ceiling is now
 * 1 MiB), and the local stand-in's queues are created with it. Messages carry ids, never payloads.
 */
export const SQS_MAX_MESSAGE_BYTES = 256 * 1024;

/** SQS's longest per-message delay; longer waits are hops (docs/internals/webhooks.md). */
export const SQS_MAX_DELAY_SECONDS = 900;

/** One `SendMessage`: over the SDK, or (the local runtime) straight to its in-process stand-in queue. */
export type QueueSender = (input: { QueueUrl: string; MessageBody: string; DelaySeconds: number }) => Promise<unknown>;

export function sdkQueueSender(client: () => Promise<SQSClient>): QueueSender {
  return async (input) => {
    const { SendMessageCommand } = sqsSdk();
    return (await client()).send(new SendMessageCommand(input));
  };
}

/**
 * One SQS queue of id-only messages (the table is the source of truth): the work queue and the
 * webhook queue are both this. A delay is at most 15 minutes (SQS); longer waits are hops.
 */
export class SqsQueue<Message> {
  constructor(
    private readonly sender: QueueSender,
    private readonly queueUrl: string,
  ) {}

  async send(message: Message, delaySeconds = 0): Promise<void> {
    await this.sender({
      QueueUrl: this.queueUrl,
      MessageBody: JSON.stringify(message),
      DelaySeconds: Math.max(0, Math.min(Math.round(delaySeconds), SQS_MAX_DELAY_SECONDS)),
    });
  }
}
