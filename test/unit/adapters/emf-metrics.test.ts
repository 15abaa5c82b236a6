import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmfMetrics, METRICS_NAMESPACE } from '../../../lambdas/adapters/emf-metrics.js';
import { METRIC_DIMENSIONS, type MetricName } from '../../../lambdas/domain/ports/services.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The EMF records written while `emit` runs (Powertools writes them through console.log). */
function captureRecords(emit: () => void): any[] {
  const written: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
    written.push(String(line));
  });
  emit();
  log.mockRestore();
  return written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.includes('_aws'))
    .map((line) => JSON.parse(line));
}

describe('business metrics in CloudWatch embedded metric format', () => {
  it('emits each metric with exactly its declared dimensions plus `service` (what the alarms read)', () => {
    const records = captureRecords(() => {
      const metrics = new EmfMetrics();
      for (const [name, dimensions] of Object.entries(METRIC_DIMENSIONS))
        metrics.count(
          name as MetricName,
          1,
          Object.fromEntries(dimensions.map((dimension) => [dimension, 'x'])) as never,
        );
    });
    expect(
      records.map(
        (record) =>
          `${record._aws.CloudWatchMetrics[0].Metrics[0].Name}: ${[...record._aws.CloudWatchMetrics[0].Dimensions[0]].sort().join(',')}`,
      ),
    ).toEqual(
      Object.entries(METRIC_DIMENSIONS).map(
        ([name, dimensions]) => `${name}: ${['service', ...dimensions].sort().join(',')}`,
      ),
    );
  });

  it('each count is one EMF record in the AutomotiveInference namespace with its own dimensions', () => {
    const records = captureRecords(() => {
      const metrics = new EmfMetrics();
      metrics.count('WebhookDeliveries', 1, { outcome: 'failed' });
      metrics.count('Admissions', 2, { endpoint: 'plate.read', mode: 'test' });
    });
    expect(records).toHaveLength(2);
    expect(records[0]._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Metrics: [{ Name: 'WebhookDeliveries', Unit: 'Count' }],
    });
    expect(records[0]).toMatchObject({ outcome: 'failed', WebhookDeliveries: 1 });
    expect(records[1]).toMatchObject({ endpoint: 'plate.read', mode: 'test', Admissions: 2 });
  });
});
