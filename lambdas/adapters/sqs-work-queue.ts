import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { WorkMessage, WorkQueue } from '../domain/ports.js';

/** Messages carry ids only; the job record is the source of truth. */
export class SqsWorkQueue implements WorkQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(message: WorkMessage, delaySeconds = 0): Promise<void> {
    await this.client.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: Math.min(delaySeconds, 900) }));
  }
}
