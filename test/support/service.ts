import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { createOrganization, type SeededOrganization } from '../../lambdas/domain/access/organizations.js';
import { AdjustableClock } from '../../lambdas/domain/kernel/clock.js';
import type { ErrorCode } from '../../lambdas/domain/kernel/errors.js';
import type { FaultInjector } from '../../lambdas/domain/kernel/faults.js';
import type { ServiceConfig } from '../../lambdas/domain/ports/services.js';
import { errorCodesOf } from '../../lambdas/http/routes/error-codes.js';
import { addDevelopmentMembers } from '../../local/development-members.js';
import { type Runtime, type RuntimeOptions, startRuntime } from '../../local/runtime.js';

export interface TestService extends Runtime {
  clock: AdjustableClock;
  org: SeededOrganization;
  /** another organisation, for cross-tenant checks */
  otherOrg: SeededOrganization;
}

/** A fresh runtime on the shared stand-ins, with its own table, bucket and queue and two seeded organisations. */
export interface TestServiceOptions {
  config?: Partial<ServiceConfig>;
  workerPaused?: boolean;
  startingCredits?: { live: number; test: number };
  plan?: string;
  faults?: FaultInjector;
  /**
   * Who runs live jobs. Default: nobody takes them, yet every endpoint is declared computed (a plane
   * that is down), so live calls are admitted and their jobs stay queued until they expire. `none`
   * is a stack without a plane (every endpoint `planned` for live keys); `reference` and `fixture`
   * are the bundled planes.
   */
  livePlane?: RuntimeOptions['livePlane'];
  /** keep the JWT signing key in this file (as npm start does), for tools that sign with it */
  signingKeyFile?: string;
  /**
   * sign as the local key, as `npm start` does and as the admin tool reads its table (default: a
   * local account of its own, a database of its own in the shared DynamoDB Local)
   */
  signsAsLocalKey?: boolean;
  /** the inference routes' integration timeout (default: the wait ceiling plus 2 s, at least 29 s) */
  inferenceIntegrationTimeoutMs?: number;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const clock = new AdjustableClock();
  const undeclared = new Set<string>();
  const resourcePrefix = `t${randomBytes(5).toString('hex')}`;
  const runtime = await startRuntime({
    onErrorResponse: (route, code) => {
      if (!errorCodesOf(route).includes(code as ErrorCode)) undeclared.add(`${route.method} ${route.path} → ${code}`);
    },
    standIns: inject('standIns'),
    port: 0,
    resourcePrefix,
    // a database of its own in the shared DynamoDB Local: what another file writes never slows its reads
    ...(options.signsAsLocalKey ? {} : { localAccount: resourcePrefix }),
    clock,
    config: {
      slowScenarioSeconds: 1,
      ...(options.livePlane === undefined ? { planeEndpoints: 'every_endpoint' as const } : {}),
      ...options.config,
    },
    workerPaused: options.workerPaused ?? false,
    sweepIntervalMs: 0,
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.livePlane ? { livePlane: options.livePlane } : {}),
    ...(options.signingKeyFile ? { signingKeyFile: options.signingKeyFile } : {}),
    ...(options.inferenceIntegrationTimeoutMs
      ? { inferenceIntegrationTimeoutMs: options.inferenceIntegrationTimeoutMs }
      : {}),
  });
  const org = await createOrganization(runtime.services, {
    name: 'Test Org',
    plan: options.plan ?? 'pro',
    ...(options.startingCredits ? { startingCredits: options.startingCredits } : {}),
  });
  const otherOrg = await createOrganization(runtime.services, { name: 'Other Org' });
  // the people behind the tokens tests mint for each role (tokenFor, svc.issuer.token)
  for (const seeded of [org, otherOrg]) await addDevelopmentMembers(runtime.services, seeded.organization.id);
  return {
    ...runtime,
    clock,
    org,
    otherOrg,
    // an answer the OpenAPI document does not declare fails the file that produced it
    stop: async () => {
      await runtime.stop();
      if (undeclared.size)
        throw new Error(
          `error codes answered but not declared in the OpenAPI document:\n${[...undeclared].join('\n')}`,
        );
    },
  };
}

/**
 * The preamble of most integration files in one call: a test service started before the tests of
 * the enclosing file (or `describe` block) and stopped after them. The object it returns is filled
 * in when the service has started, so tests and later hooks use it as the service itself.
 */
export function sharedTestService(options: TestServiceOptions = {}): TestService {
  const shared = {} as TestService;
  beforeAll(async () => {
    Object.assign(shared, await startTestService(options));
  });
  afterAll(async () => {
    await shared.stop?.();
  });
  return shared;
}
