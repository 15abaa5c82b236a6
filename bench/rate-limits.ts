import { createOrganization } from '../lambdas/domain/access/organizations.js';
import type { Runtime } from '../local/runtime.js';
import { type CallCounts, countCalls, perJob } from './call-counter.js';

/**
 * The cost of authentication plus the rate-limit check on a request that does nothing else
 * (`GET /v1/endpoints`): DynamoDB calls per request and latency.
 */
export async function measureRateLimitCost(
  runtime: Runtime,
  requests = 500,
): Promise<{ callsPerRequest: Record<string, string>; p50Ms: number }> {
  const org = await createOrganization(runtime.services, { name: 'Rate Bench', plan: 'enterprise' });
  const counts: CallCounts = {};
  let counting = false;
  countCalls('dynamodb', () => (counting ? counts : {}));
  // warm the plan cache and the key's last_used_at, as a steady-state process would have them
  await fetch(`${runtime.baseUrl}/v1/endpoints`, { headers: { Authorization: `Bearer ${org.testKey}` } });
  counting = true;
  const latencies: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const t0 = performance.now();
    const response = await fetch(`${runtime.baseUrl}/v1/endpoints`, {
      headers: { Authorization: `Bearer ${org.testKey}` },
    });
    await response.arrayBuffer();
    latencies.push(performance.now() - t0);
  }
  counting = false;
  latencies.sort((a, b) => a - b);
  return {
    callsPerRequest: perJob(counts, requests),
    p50Ms: Number(latencies[Math.floor(latencies.length / 2)]!.toFixed(2)),
  };
}
