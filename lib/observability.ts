import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, Dashboard, GraphWidget, MathExpression, Metric, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../lambdas/adapters/emf-metrics.js';

export interface ObservabilityProps {
  restApi: RestApi;
  workQueue: Queue;
  /** every dead-letter queue of the service: a message on any of them alarms */
  deadLetterQueues: Record<string, Queue>;
  inspections: StateMachine;
}

const FIVE_MINUTES = Duration.minutes(5);

/** A business metric the functions emit (`lambdas/adapters/emf-metrics.ts`), summed over five minutes. */
function business(metricName: string, dimensionsMap: Record<string, string> = {}): Metric {
  return new Metric({ namespace: METRICS_NAMESPACE, metricName, dimensionsMap, statistic: 'Sum', period: FIVE_MINUTES });
}

/**
 * The alarms an operator acts on and one dashboard: dead-letter depth, 5xx rate, webhook failure
 * rate, jobs past their timeout (and the age of the oldest queued message), inspection failures.
 */
export class Observability extends Construct {
  readonly alarms: Record<string, Alarm> = {};
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const alarm = (name: string, metric: IMetric, threshold: number, description: string) => {
      this.alarms[name] = new Alarm(this, `${name}Alarm`, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    };

    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      alarm(
        `${name}DeadLetters`,
        queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        1,
        `Messages are parking on the ${name} dead-letter queue: a consumer keeps failing (the sweeper still re-drives the work from the table; read the function's logs).`,
      );
    }

    const serverErrorRate = new MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: props.restApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
        requests: props.restApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
      },
      label: '5xx (% of requests)',
      period: FIVE_MINUTES,
    });
    alarm('ServerErrorRate', serverErrorRate, 1, 'More than 1 % of API requests answered 5xx over five minutes.');

    const webhookFailureRate = new MathExpression({
      expression: 'IF(delivered + failed + retried > 0, 100 * (failed + retried) / (delivered + failed + retried), 0)',
      usingMetrics: {
        delivered: business('WebhookDeliveries', { outcome: 'delivered' }),
        failed: business('WebhookDeliveries', { outcome: 'failed' }),
        retried: business('WebhookDeliveries', { outcome: 'retry_scheduled' }),
      },
      label: 'webhook attempts failing (%)',
      period: FIVE_MINUTES,
    });
    alarm('WebhookFailureRate', webhookFailureRate, 20, 'More than 20 % of webhook attempts failed over five minutes (receivers down, or our sender broken).');

    alarm('JobsPastTimeout', business('JobsPastTimeout'), 1, 'The sweeper found jobs still queued past their queue timeout, or live jobs processing past the inference timeout.');
    alarm(
      'OldestQueuedWork',
      props.workQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      300,
      'A work message has waited more than five minutes: the consumer is not keeping up or not running.',
    );
    alarm('InspectionFailures', props.inspections.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' }), 1, 'An inspection state machine execution failed.');

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(6) });
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Admissions and settlements',
        left: [business('Admissions'), business('Settlements', { outcome: 'succeeded' }), business('Settlements', { outcome: 'failed' })],
      }),
      new GraphWidget({ title: 'Credits charged', left: [business('CreditsCharged', { mode: 'live' }), business('CreditsCharged', { mode: 'test' })] }),
      new GraphWidget({ title: 'API 5xx rate', left: [serverErrorRate] }),
      new GraphWidget({ title: 'Webhook attempts failing', left: [webhookFailureRate] }),
      new GraphWidget({ title: 'Work queue: oldest message (s)', left: [props.workQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' })] }),
      new GraphWidget({
        title: 'Dead-letter queues',
        left: Object.values(props.deadLetterQueues).map((queue) => queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' })),
      }),
      new GraphWidget({ title: 'Jobs past their timeout', left: [business('JobsPastTimeout')] }),
      new GraphWidget({
        title: 'Inspection executions',
        left: [props.inspections.metricSucceeded({ period: FIVE_MINUTES }), props.inspections.metricFailed({ period: FIVE_MINUTES })],
      }),
    );
  }
}
