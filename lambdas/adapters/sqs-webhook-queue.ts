import type { SQSClient } from '@aws-sdk/client-sqs';
import type { WebhookMessage, WebhookQueue } from '../domain/ports/webhooks.js';
import { lazy } from './lazy.js';

const sqsSdk = lazy(() => import('@aws-sdk/client-sqs'));

/** A standard queue: per-message delays carry the retry schedule, 15 minutes at most per hop. */
export class SqsWebhookQueue implements WebhookQueue {
  constructor(
    private readonly client: () => Promise<SQSClient>,
    private readonly queueUrl: string,
  ) {}

  async send(message: WebhookMessage, delaySeconds = 0): Promise<void> {
    const { SendMessageCommand } = await sqsSdk();
    await (await this.client()).send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: Math.max(0, Math.min(Math.round(delaySeconds), 900)) }),
    );
  }
}
