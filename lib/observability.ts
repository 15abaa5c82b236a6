import { Duration, NestedStack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../lambdas/adapters/emf-metrics.js';
import { METRIC_DIMENSIONS, type MetricDimensions, type MetricName } from '../lambdas/domain/ports/services.js';

export interface ObservabilityProps {
  restApi: RestApi;
  workQueue: Queue;
  /** the lane of fast endpoints, whose `wait=true` callers hold a connection for at most 30 s */
  fastWorkQueue: Queue;
  /** every dead-letter queue of the service: a message on any of them alarms */
  deadLetterQueues: Record<string, Queue>;
  /** the functions the schedules run: an error in any run alarms */
  scheduledWorkers: Record<string, IFunction>;
  inspections: StateMachine;
  /** `-c alarmEmail`: subscribed to the alarm topic */
  alarmEmail?: string;
}

const FIVE_MINUTES = Duration.minutes(5);

/**
 * A business metric the functions emit (`lambdas/adapters/emf-metrics.ts`), summed over five
 * minutes: CloudWatch matches the whole dimension set, so it names every dimension the metric is
 * emitted with, `service` included.
 */
function business<N extends MetricName>(metricName: N, dimensions: MetricDimensions<N>): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: METRICS_SERVICE, ...dimensions },
    statistic: 'Sum',
    period: FIVE_MINUTES,
  });
}

/** Every series of a business metric (one per combination of its dimensions), for a graph. */
function everySeries(metricName: MetricName, label: string): MathExpression {
  const schema = [METRICS_NAMESPACE, ...[...METRIC_DIMENSIONS[metricName], 'service'].sort()].join(',');
  return new MathExpression({
    expression: `SEARCH('{${schema}} MetricName="${metricName}"', 'Sum', 300)`,
    usingMetrics: {},
    label,
    period: FIVE_MINUTES,
  });
}

/**
 * The alarms an operator acts on and one dashboard: dead-letter depth, 5xx rate, webhook failure
 * rate, jobs past their timeout (and the age of the oldest queued message), inspection failures.
 */
export class Observability extends Construct {
  readonly alarms: Record<string, Alarm> = {};
  readonly dashboard: Dashboard;
  /** every alarm notifies it, going into alarm and back to OK (output `AlarmTopicArn`) */
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'Automotive Inference alarms', enforceSSL: true });
    if (props.alarmEmail) {
      this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
      Validations.of(this.topic).acknowledge({
        id: 'Serverless-SNSRedrivePolicy',
        reason:
          'The -c alarmEmail subscription: SNS retries email delivery itself, and a redrive queue would hold alarms nobody reads; other subscribers add their own.',
      });
    }
    const notify = new SnsAction(this.topic);
    const alarm = (name: string, metric: IMetric, threshold: number, description: string) => {
      const created = new Alarm(this, `${name}Alarm`, {
        alarmDescription: `${description} What to do: docs/internals/operations.md, "${name}".`,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(notify);
      created.addOkAction(notify);
      this.alarms[name] = created;
    };

    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      alarm(
        `${name}DeadLetters`,
        queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        1,
        `Messages are parking on the ${name} dead-letter queue: a consumer keeps failing (the sweeper still re-drives the work from the table; read the function's logs).`,
      );
    }

    for (const [name, fn] of Object.entries(props.scheduledWorkers)) {
      alarm(
        `${name}Errors`,
        fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        1,
        `A scheduled ${name.toLowerCase()} run failed (an error or a timeout).`,
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
    alarm(
      'WebhookFailureRate',
      webhookFailureRate,
      20,
      'More than 20 % of webhook attempts failed over five minutes (receivers down, or our sender broken).',
    );

    const jobsPastTimeout = new MathExpression({
      expression: 'queued + processing',
      usingMetrics: {
        queued: business('JobsPastTimeout', { state: 'queued' }),
        processing: business('JobsPastTimeout', { state: 'processing' }),
      },
      label: 'jobs past their timeout',
      period: FIVE_MINUTES,
    });
    alarm(
      'JobsPastTimeout',
      jobsPastTimeout,
      1,
      'The sweeper found jobs still queued past their queue timeout, or live jobs processing past the inference timeout.',
    );
    alarm(
      'OldestQueuedWork',
      props.workQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      300,
      'A work message has waited more than five minutes: the consumer is not keeping up or not running.',
    );
    alarm(
      'OldestFastWork',
      props.fastWorkQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      60,
      'A fast-lane work message has waited more than a minute: `wait=true` callers are getting 202 instead of their result.',
    );
    const inspectionsNotSucceeded = new MathExpression({
      expression: 'failed + timedOut + aborted',
      usingMetrics: {
        failed: props.inspections.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' }),
        timedOut: props.inspections.metricTimedOut({ period: FIVE_MINUTES, statistic: 'Sum' }),
        aborted: props.inspections.metricAborted({ period: FIVE_MINUTES, statistic: 'Sum' }),
      },
      label: 'inspection executions failed, timed out or aborted',
      period: FIVE_MINUTES,
    });
    alarm(
      'InspectionFailures',
      inspectionsNotSucceeded,
      1,
      'An inspection state machine execution failed, timed out or was aborted.',
    );

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(6) });
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Admissions (by endpoint and mode)', left: [everySeries('Admissions', 'admissions')] }),
      new GraphWidget({
        title: 'Settlements (by outcome and mode)',
        left: [everySeries('Settlements', 'settlements')],
      }),
      new GraphWidget({
        title: 'Credits charged',
        left: [business('CreditsCharged', { mode: 'live' }), business('CreditsCharged', { mode: 'test' })],
      }),
      new GraphWidget({ title: 'API 5xx rate', left: [serverErrorRate] }),
      new GraphWidget({ title: 'Webhook attempts failing', left: [webhookFailureRate] }),
      new GraphWidget({
        title: 'Work queues: oldest message (s)',
        left: [props.workQueue, props.fastWorkQueue].map((queue) =>
          queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        ),
      }),
      new GraphWidget({
        title: 'Dead-letter queues',
        left: Object.values(props.deadLetterQueues).map((queue) =>
          queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        ),
      }),
      new GraphWidget({ title: 'Jobs past their timeout', left: [jobsPastTimeout] }),
      new GraphWidget({
        title: 'Inspection executions',
        left: [props.inspections.metricSucceeded({ period: FIVE_MINUTES }), inspectionsNotSucceeded],
      }),
    );
  }
}
/**
 * The alarms and the dashboard in a nested stack of their own: they only read metrics, and the
 * main template keeps room under CloudFormation's 500-resource limit for more routes.
 */
export class ObservabilityStack extends NestedStack {
  readonly observability: Observability;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id, { description: 'Automotive Inference: alarms and the operations dashboard' });
    this.observability = new Observability(this, 'Observability', props);
  }
}
