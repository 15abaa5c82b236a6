import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { MetricName, Metrics } from '../domain/ports/services.js';

export const METRICS_NAMESPACE = 'AutomotiveInference';

/**
 * CloudWatch embedded metric format through Powertools: each count is its own single-metric
 * record (one log line, published at once), so dimensions may differ from call to call and
 * nothing waits for a flush at the end of an invocation.
 */
export class EmfMetrics implements Metrics {
  private readonly metrics = new PowertoolsMetrics({ namespace: METRICS_NAMESPACE, serviceName: 'automotive-inference' });

  count(name: MetricName, value: number, dimensions: Record<string, string>): void {
    const single = this.metrics.singleMetric();
    for (const [dimension, dimensionValue] of Object.entries(dimensions)) single.addDimension(dimension, dimensionValue);
    single.addMetric(name, MetricUnit.Count, value);
  }
}
