import type { SQSClient } from '@aws-sdk/client-sqs';
import type { WorkMessage, WorkQueue } from '../domain/ports/stores.js';
import { lazy } from './lazy.js';

// loaded on first use: only admission and the sweeper enqueue
const sqsSdk = lazy(() => import('@aws-sdk/client-sqs'));

/** Messages carry ids only; the job record is the source of truth. */
export class SqsWorkQueue implements WorkQueue {
  constructor(
    private readonly client: () => Promise<SQSClient>,
    private readonly queueUrl: string,
  ) {}

  async send(message: WorkMessage, delaySeconds = 0): Promise<void> {
    const { SendMessageCommand } = await sqsSdk();
    await (await this.client()).send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: Math.min(delaySeconds, 900) }));
  }
}
