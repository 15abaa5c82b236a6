import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS_NAMESPACE } from '../../lambdas/adapters/emf-metrics.js';
import { METRIC_DIMENSIONS, type MetricName } from '../../lambdas/domain/ports/services.js';
import { type CfnResource, flatten, synthStack } from './template.js';

let resources: Record<string, CfnResource>;
let alarms: Array<Record<string, any>>;

beforeAll(() => {
  // the alarms and the dashboard live in their own nested stack
  const { stack } = synthStack();
  resources = Template.fromStack(Stack.of(stack.observability)).toJSON().Resources as Record<string, CfnResource>;
  alarms = Object.values(resources)
    .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
    .map((r) => r.Properties ?? {});
});

const text = (value: unknown) => JSON.stringify(flatten(value ?? ''));

interface MetricStat {
  Namespace: string;
  MetricName: string;
  Dimensions?: Array<{ Name: string; Value: unknown }>;
}
/** The metrics an alarm reads through metric math (its single metric, if any, is on the alarm itself). */
const metricStats = (alarm: Record<string, any>): MetricStat[] =>
  ((alarm.Metrics ?? []) as Array<{ MetricStat?: { Metric: MetricStat } }>).flatMap((m) =>
    m.MetricStat ? [m.MetricStat.Metric] : [],
  );
const dimensionValue = (metric: MetricStat, name: string) => metric.Dimensions?.find((d) => d.Name === name)?.Value;
const byDescription = (pattern: RegExp) => alarms.filter((alarm) => pattern.test(String(alarm.AlarmDescription)));

describe('alarms an operator acts on', () => {
  it('one per dead-letter queue (work and webhooks), at the first parked message', () => {
    for (const queue of ['WorkDeadLetterQueue', 'WebhookDeadLetterQueue']) {
      const alarm = alarms.find(
        (a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && text(a.Dimensions).includes(queue),
      );
      expect(alarm, queue).toMatchObject({
        Namespace: 'AWS/SQS',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  it('API 5xx rate above 1 %, as metric math over the REST API errors and requests', () => {
    const [alarm] = byDescription(/5xx/);
    expect(alarm!.Threshold).toBe(1);
    const metrics = alarm!.Metrics as Array<{
      Expression?: string;
      MetricStat?: { Metric: { MetricName: string; Namespace: string } };
    }>;
    expect(metrics.find((m) => m.Expression)?.Expression).toContain('100 * errors / requests');
    expect(metrics.flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric.MetricName] : [])).sort()).toEqual([
      '5XXError',
      'Count',
    ]);
  });

  it('webhook failure rate above 20 %, from the WebhookDeliveries metric the delivery code emits by outcome', () => {
    const [alarm] = byDescription(/webhook attempts failed/);
    expect(alarm!.Threshold).toBe(20);
    const stats = (
      alarm!.Metrics as Array<{
        MetricStat?: {
          Metric: { MetricName: string; Namespace: string; Dimensions: Array<{ Name: string; Value: string }> };
        };
      }>
    ).flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric] : []));
    expect(
      stats.every((metric) => metric.Namespace === METRICS_NAMESPACE && metric.MetricName === 'WebhookDeliveries'),
    ).toBe(true);
    expect(
      stats.map((metric) => metric.Dimensions.find((d: { Name?: string }) => d.Name === 'outcome')!.Value).sort(),
    ).toEqual(['delivered', 'failed', 'retry_scheduled']);
  });

  it('jobs past their timeout (sweeper metric) and work waiting more than five minutes', () => {
    const [pastTimeout] = byDescription(/past their queue timeout/);
    expect(pastTimeout!.Threshold).toBe(1);
    expect(
      metricStats(pastTimeout!)
        .map((m) => `${m.Namespace} ${m.MetricName} ${dimensionValue(m, 'state')}`)
        .sort(),
    ).toEqual([`${METRICS_NAMESPACE} JobsPastTimeout processing`, `${METRICS_NAMESPACE} JobsPastTimeout queued`]);
    expect(byDescription(/waited more than five minutes/)[0]).toMatchObject({
      MetricName: 'ApproximateAgeOfOldestMessage',
      Threshold: 300,
    });
    const [fastLane] = byDescription(/fast-lane work message/);
    expect(fastLane).toMatchObject({ MetricName: 'ApproximateAgeOfOldestMessage', Threshold: 60 });
    expect(text(fastLane!.Dimensions)).toContain('FastWorkQueue');
  });

  it('inspection state machine executions that fail, time out or are aborted', () => {
    const [alarm] = byDescription(/state machine execution failed/);
    expect(alarm!.Threshold).toBe(1);
    expect(
      metricStats(alarm!)
        .map((m) => `${m.Namespace} ${m.MetricName}`)
        .sort(),
    ).toEqual(['AWS/States ExecutionsAborted', 'AWS/States ExecutionsFailed', 'AWS/States ExecutionsTimedOut']);
  });

  it('reads each business metric with exactly the dimensions the functions emit it with (CloudWatch matches the whole set)', () => {
    const emitted = (name: string) => ['service', ...METRIC_DIMENSIONS[name as MetricName]].sort().join(',');
    const read: string[] = [];
    for (const alarm of alarms)
      for (const metric of [...metricStats(alarm), ...(alarm.Namespace ? [alarm as MetricStat] : [])])
        if (metric.Namespace === METRICS_NAMESPACE)
          read.push(
            `${metric.MetricName}: ${(metric.Dimensions ?? [])
              .map((d) => d.Name)
              .sort()
              .join(',')}`,
          );
    const dashboard = JSON.parse(
      String(
        flatten(
          Object.values(resources).find((r) => r.Type === 'AWS::CloudWatch::Dashboard')!.Properties!.DashboardBody,
        ),
      ),
    ) as {
      widgets: Array<{ properties: { metrics?: unknown[][] } }>;
    };
    for (const line of dashboard.widgets.flatMap((widget) => widget.properties.metrics ?? [])) {
      // a metric: [namespace, name, dimension, value, ..., options?]; an expression: [{ expression }]
      const [first, name, ...rest] = line;
      if (first === METRICS_NAMESPACE) {
        const pairs = rest.filter((item): item is string => typeof item === 'string');
        read.push(
          `${String(name)}: ${pairs
            .filter((_, i) => i % 2 === 0)
            .sort()
            .join(',')}`,
        );
      }
      const search = /SEARCH\('\{([^}]+)\} MetricName="(\w+)"/.exec(
        String((first as { expression?: string }).expression ?? ''),
      );
      const [namespace, ...dimensions] = search?.[1]?.split(',') ?? [];
      if (search && namespace === METRICS_NAMESPACE) read.push(`${search[2]}: ${dimensions.sort().join(',')}`);
    }
    expect(new Set(read.map((entry) => entry.split(':')[0]))).toEqual(new Set(Object.keys(METRIC_DIMENSIONS)));
    for (const entry of read) expect(entry).toBe(`${entry.split(':')[0]}: ${emitted(entry.split(':')[0]!)}`);
  });

  it('a CloudWatch dashboard shows the same figures', () => {
    const dashboards = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = text(dashboards[0]!.Properties!.DashboardBody);
    for (const metric of [
      'Admissions',
      'Settlements',
      'CreditsCharged',
      'WebhookDeliveries',
      'JobsPastTimeout',
      '5XXError',
      'ApproximateAgeOfOldestMessage',
      'ExecutionsFailed',
    ])
      expect(body, metric).toContain(metric);
  });
});
