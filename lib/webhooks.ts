import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { grantDataAccess, WEBHOOK_DELIVERY_ACCESS, type DataResources } from './access.js';
import { serviceEnvironment, serviceFunction } from './functions.js';

/** Ten records run side by side, each at most 15 s (the receiver's timeout) plus the store calls. */
export const DELIVERY_TIMEOUT = Duration.seconds(30);
export const DELIVERY_BATCH_SIZE = 10;

export interface WebhooksProps extends DataResources {
  webhookQueue: Queue;
  webhookDeadLetterQueue: Queue;
  docsUrl: string;
}

/** The SQS-triggered webhook delivery function and the alarm on its dead-letter queue. */
export class Webhooks extends Construct {
  readonly delivery: NodejsFunction;
  readonly deadLetterAlarm: Alarm;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    this.delivery = serviceFunction(this, 'Delivery', {
      name: 'webhook-delivery',
      entry: 'lambdas/workers/webhook-delivery.ts',
      description: 'Webhook delivery: fans events out to subscribed endpoints, signs and POSTs each attempt, schedules retries',
      timeout: DELIVERY_TIMEOUT,
      environment: serviceEnvironment(props, props.docsUrl),
    });
    grantDataAccess(this.delivery, props, WEBHOOK_DELIVERY_ACCESS);
    this.delivery.addEventSource(new SqsEventSource(props.webhookQueue, { batchSize: DELIVERY_BATCH_SIZE, reportBatchItemFailures: true }));

    this.deadLetterAlarm = new Alarm(this, 'DeadLetterAlarm', {
      alarmDescription: 'Webhook messages are failing repeatedly and parking on the dead-letter queue (the sweeper re-sends the deliveries; look at the delivery function logs)',
      metric: props.webhookDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
