import type { SQSClient } from '@aws-sdk/client-sqs';
import { sqsSdk } from './aws-sdk.js';

/**
 * One SQS queue of id-only messages (the table is the source of truth): the work queue and the
 * webhook queue are both this. A delay is at most 15 minutes (SQS); longer waits are hops.
 */
export class SqsQueue<Message> {
  constructor(
    private readonly client: () => Promise<SQSClient>,
    private readonly queueUrl: string,
  ) {}

  async send(message: Message, delaySeconds = 0): Promise<void> {
    const { SendMessageCommand } = sqsSdk();
    await (await this.client()).send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: Math.max(0, Math.min(Math.round(delaySeconds), 900)) }),
    );
  }
}
