import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmfMetrics, METRICS_NAMESPACE } from '../../lambdas/adapters/emf-metrics.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('business metrics in CloudWatch embedded metric format', () => {
  it('each count is one EMF record in the AutomotiveInference namespace with its own dimensions', () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
      written.push(String(line));
    });
    const metrics = new EmfMetrics();
    metrics.count('WebhookDeliveries', 1, { outcome: 'failed' });
    metrics.count('Admissions', 2, { endpoint: 'plate.read', mode: 'test' });
    log.mockRestore();
    const records = written
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.includes('_aws'))
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(2);
    expect(records[0]._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: METRICS_NAMESPACE, Metrics: [{ Name: 'WebhookDeliveries', Unit: 'Count' }] });
    expect(records[0]).toMatchObject({ outcome: 'failed', WebhookDeliveries: 1 });
    expect(records[1]).toMatchObject({ endpoint: 'plate.read', mode: 'test', Admissions: 2 });
  });
});
