import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { MetricDimensions, MetricName, Metrics } from '../domain/ports/services.js';

export const METRICS_NAMESPACE = 'AutomotiveInference';
/** Powertools adds it to every record as the `service` dimension: alarms must name it too. */
export const METRICS_SERVICE = 'automotive-inference';

/**
 * CloudWatch embedded metric format through Powertools: each count is its own single-metric
 * record (one log line, published at once), so dimensions may differ from call to call and
 * nothing waits for a flush at the end of an invocation.
 */
export class EmfMetrics implements Metrics {
  private readonly metrics = new PowertoolsMetrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });

  count<N extends MetricName>(name: N, value: number, dimensions: MetricDimensions<N>): void {
    const single = this.metrics.singleMetric();
    for (const [dimension, dimensionValue] of Object.entries<string>(dimensions))
      single.addDimension(dimension, dimensionValue);
    single.addMetric(name, MetricUnit.Count, value);
  }
}
