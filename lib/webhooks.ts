import { Duration } from 'aws-cdk-lib';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type DataResources, grantDataAccess, WEBHOOK_DELIVERY_ACCESS } from './access.js';
import { QUEUE_CONCURRENCY } from './concurrency.js';
import { consumeQueue, type ServiceFunction, serviceEnvironment, serviceFunction } from './functions.js';

/** Ten records run side by side, each at most 15 s (the receiver's timeout) plus the store calls. */
export const DELIVERY_TIMEOUT = Duration.seconds(30);
export const DELIVERY_BATCH_SIZE = 10;

export interface WebhooksProps extends DataResources {
  webhookQueue: Queue;
  docsUrl: string;
}

/** The SQS-triggered webhook delivery function (its dead-letter alarm is in lib/observability.ts). */
export class Webhooks extends Construct {
  readonly delivery: ServiceFunction;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    this.delivery = serviceFunction(this, 'Delivery', {
      name: 'webhook-delivery',
      entry: 'lambdas/workers/webhook-delivery.ts',
      description:
        'Webhook delivery: fans events out to subscribed endpoints, signs and POSTs each attempt, schedules retries',
      timeout: DELIVERY_TIMEOUT,
      environment: serviceEnvironment(props, props.docsUrl),
    });
    grantDataAccess(this.delivery, props, WEBHOOK_DELIVERY_ACCESS);
    consumeQueue(this.delivery, props.webhookQueue, {
      batchSize: DELIVERY_BATCH_SIZE,
      maxConcurrency: QUEUE_CONCURRENCY.webhooks,
    });
  }
}
