import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS_NAMESPACE } from '../../lambdas/adapters/emf-metrics.js';
import { flatten, synthStack, type CfnResource } from './template.js';

let resources: Record<string, CfnResource>;
let alarms: Array<Record<string, any>>;

beforeAll(() => {
  ({ resources } = synthStack());
  alarms = Object.values(resources)
    .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
    .map((r) => r.Properties ?? {});
});

const text = (value: unknown) => JSON.stringify(flatten(value ?? ''));
const byDescription = (pattern: RegExp) => alarms.filter((alarm) => pattern.test(String(alarm.AlarmDescription)));

describe('alarms an operator acts on', () => {
  it('one per dead-letter queue (work and webhooks), at the first parked message', () => {
    for (const queue of ['WorkDeadLetterQueue', 'WebhookDeadLetterQueue']) {
      const alarm = alarms.find((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && text(a.Dimensions).includes(queue));
      expect(alarm, queue).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    }
  });

  it('API 5xx rate above 1 %, as metric math over the REST API errors and requests', () => {
    const [alarm] = byDescription(/5xx/);
    expect(alarm!.Threshold).toBe(1);
    const metrics = alarm!.Metrics as Array<{ Expression?: string; MetricStat?: { Metric: { MetricName: string; Namespace: string } } }>;
    expect(metrics.find((m) => m.Expression)?.Expression).toContain('100 * errors / requests');
    expect(metrics.flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric.MetricName] : [])).sort()).toEqual(['5XXError', 'Count']);
  });

  it('webhook failure rate above 20 %, from the WebhookDeliveries metric the delivery code emits by outcome', () => {
    const [alarm] = byDescription(/webhook attempts failed/);
    expect(alarm!.Threshold).toBe(20);
    const stats = (alarm!.Metrics as Array<{ MetricStat?: { Metric: { MetricName: string; Namespace: string; Dimensions: Array<{ Value: string }> } } }>).flatMap((m) =>
      m.MetricStat ? [m.MetricStat.Metric] : [],
    );
    expect(stats.every((metric) => metric.Namespace === METRICS_NAMESPACE && metric.MetricName === 'WebhookDeliveries')).toBe(true);
    expect(stats.map((metric) => metric.Dimensions[0]!.Value).sort()).toEqual(['delivered', 'failed', 'retry_scheduled']);
  });

  it('jobs past their timeout (sweeper metric) and work waiting more than five minutes', () => {
    expect(byDescription(/past their queue timeout/)[0]).toMatchObject({ Namespace: METRICS_NAMESPACE, MetricName: 'JobsPastTimeout', Threshold: 1 });
    expect(byDescription(/waited more than five minutes/)[0]).toMatchObject({ MetricName: 'ApproximateAgeOfOldestMessage', Threshold: 300 });
  });

  it('inspection state machine failures', () => {
    expect(byDescription(/state machine execution failed/)[0]).toMatchObject({ Namespace: 'AWS/States', MetricName: 'ExecutionsFailed', Threshold: 1 });
  });

  it('a CloudWatch dashboard shows the same figures', () => {
    const dashboards = Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = text(dashboards[0]!.Properties!.DashboardBody);
    for (const metric of ['Admissions', 'Settlements', 'CreditsCharged', 'WebhookDeliveries', 'JobsPastTimeout', '5XXError', 'ApproximateAgeOfOldestMessage', 'ExecutionsFailed'])
      expect(body, metric).toContain(metric);
  });
});
