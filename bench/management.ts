import { JoseTokenVerifier } from '../lambdas/adapters/jose-token-verifier.js';
import { authenticateApiKey } from '../lambdas/domain/access/api-keys.js';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import type { Runtime } from '../local/runtime.js';
import { type CallCounts, countCalls, perJob } from './call-counter.js';

export interface Timing {
  p50: number;
  p99: number;
  mean: number;
}

export interface ManagementAuthReport {
  iterations: number;
  /** ES256 JWT verified in process against the in-memory key set (the local runtime's path), microseconds */
  jwtVerifyLocalUs: Timing;
  /** the AWS path: a remote JWKS, fetched on first use (cold start) and cached afterwards */
  jwtRemoteFirstVerifyMs: number;
  jwtVerifyRemoteCachedUs: Timing;
  /** `authenticateApiKey`: one strongly consistent GetItem of the secret item, milliseconds */
  apiKeyLookupMs: Timing;
  /** DynamoDB commands per API-key lookup (the last_used_at touch adds two writes per key per 5 minutes) */
  dynamoCallsPerApiKeyLookup: Record<string, string>;
}

function timing(samples: number[], scale: number): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  const round = (value: number) => Number((value * scale).toFixed(scale === 1000 ? 1 : 2));
  return { p50: round(at(50)), p99: round(at(99)), mean: round(samples.reduce((a, b) => a + b, 0) / samples.length) };
}

async function sample(iterations: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const t0 = performance.now();
    await work();
    samples.push(performance.now() - t0);
  }
  return samples;
}

/**
 * What authentication costs per request on each surface: verifying a dashboard JWT (CPU only
 * once the JWKS is cached) against resolving an API key (one DynamoDB read, never cached, so a
 * revoked key fails on the very next request).
 */
export async function measureManagementAuth(runtime: Runtime, iterations = 1000): Promise<ManagementAuthReport> {
  const services = runtime.services;
  const org = await createOrganization(services, { name: 'Bench Auth Org' });
  const token = await runtime.issuer.token(org.organization.id, 'admin');

  await sample(50, () => services.tokens.verify(token));
  const local = await sample(iterations, () => services.tokens.verify(token));

  const remote = JoseTokenVerifier.remote(`${runtime.baseUrl}/.well-known/jwks.json`, {
    issuer: runtime.issuer.issuer,
    audience: runtime.issuer.audience,
    clock: services.clock,
  });
  const [first] = await sample(1, () => remote.verify(token));
  const cached = await sample(iterations, () => remote.verify(token));

  const counts: CallCounts = {};
  let sink: CallCounts = {};
  countCalls('dynamodb', () => sink, 'dynamodb-auth');
  await sample(20, () => authenticateApiKey(services, org.testKey));
  await new Promise((resolve) => setTimeout(resolve, 100));
  sink = counts;
  const lookups = await sample(iterations, () => authenticateApiKey(services, org.testKey));
  sink = {};

  return {
    iterations,
    jwtVerifyLocalUs: timing(local, 1000),
    jwtRemoteFirstVerifyMs: Number(first!.toFixed(2)),
    jwtVerifyRemoteCachedUs: timing(cached, 1000),
    apiKeyLookupMs: timing(lookups, 1),
    dynamoCallsPerApiKeyLookup: perJob(counts, iterations),
  };
}
