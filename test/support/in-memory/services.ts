import {
  UnconfiguredIdentityProvider,
  UnconfiguredOrchestrator,
  UnconfiguredPaymentProvider,
  UnconfiguredTokenVerifier,
} from '../../../lambdas/adapters/unconfigured.js';
import {
  createOrganization,
  type NewOrganization,
  type SeededOrganization,
} from '../../../lambdas/domain/access/organizations.js';
import { CachedPlanLookup } from '../../../lambdas/domain/access/plan-lookup.js';
import { PrincipalCache } from '../../../lambdas/domain/access/principal-cache.js';
import { RateLimiter } from '../../../lambdas/domain/access/rate-limits.js';
import { BackgroundWork } from '../../../lambdas/domain/kernel/background.js';
import type { Clock } from '../../../lambdas/domain/kernel/clock.js';
import { ArmedFault, type FaultInjector, NO_FAULTS } from '../../../lambdas/domain/kernel/faults.js';
import type { WorkMessage } from '../../../lambdas/domain/ports/jobs.js';
import {
  DEFAULT_CONFIG,
  type Log,
  type Metrics,
  type ServiceConfig,
  type Services,
} from '../../../lambdas/domain/ports/services.js';
import { ListenerHints } from '../../../lambdas/domain/webhooks/listener-hints.js';
import { jobStreamPipes } from '../../../local/job-stream.js';
import {
  InMemoryAccountStore,
  InMemoryIdempotencyStore,
  InMemoryMemberStore,
  InMemoryRateLimitCounter,
} from './access.js';
import { InMemoryErasureStore, InMemoryObjectEraser } from './erasure.js';
import {
  InMemoryBatchStore,
  InMemoryJobStore,
  InMemoryObjectStore,
  InMemoryUploadStore,
  InMemoryWorkQueue,
  RecordingInferencePlane,
  RecordingQueue,
} from './jobs.js';
import { InMemoryLeaseStore } from './leases.js';
import { InMemoryTables } from './tables.js';
import { InMemoryUnitOfWork } from './unit-of-work.js';
import { InMemoryUsageStore } from './usage.js';
import { InMemoryWebhookQueue, InMemoryWebhookStore, ScriptedWebhookSender } from './webhooks.js';

/** A clock that moves only when told: rate-limit windows and retry schedules stay where a test puts them. */
export class ManualClock implements Clock {
  /** 10:00:05 UTC on a fixed day: five seconds into a fresh rate-limit window */
  constructor(private ms = Date.UTC(2026, 7, 3, 10, 0, 5)) {}
  nowMs(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Keeps every line, so a test can read what was logged and a green run prints nothing. */
export class RecordingLog implements Log {
  readonly lines: Array<{
    level: 'info' | 'warn' | 'error';
    message: string;
    extra: Record<string, unknown> | undefined;
  }> = [];
  info(message: string, extra?: Record<string, unknown>): void {
    this.lines.push({ level: 'info', message, extra });
  }
  warn(message: string, extra?: Record<string, unknown>): void {
    this.lines.push({ level: 'warn', message, extra });
  }
  error(message: string, extra?: Record<string, unknown>): void {
    this.lines.push({ level: 'error', message, extra });
  }
}

export class RecordingMetrics implements Metrics {
  readonly counts: Array<{ name: string; value: number; dimensions: Record<string, string> }> = [];
  count(name: string, value: number, dimensions: Record<string, string>): void {
    this.counts.push({ name, value, dimensions });
  }
}

/** Services on the in-memory ports, with the doubles a test drives or reads kept at their concrete types. */
export interface InMemoryServices extends Services {
  tables: InMemoryTables;
  clock: ManualClock;
  log: RecordingLog;
  metrics: RecordingMetrics;
  workQueues: { standard: InMemoryWorkQueue; fast: InMemoryWorkQueue };
  webhookQueue: InMemoryWebhookQueue;
  webhookSender: ScriptedWebhookSender;
  inferencePlane: RecordingInferencePlane;
  /** what the job stream's Pipes gave up sending to a work queue after their retries: the batches' places in the stream */
  streamDeadLetters: RecordingQueue<string>;
}

/**
 * Every port of the domain in memory, wired the way the composition root wires the AWS adapters
 * (the same rate limiter, principal cache, plan cache and listener hints): the domain runs as it
 * does on Lambda, without DynamoDB, S3, SQS or the network.
 */
export function inMemoryServices(
  options: { config?: Partial<ServiceConfig>; faults?: FaultInjector; clock?: ManualClock } = {},
): InMemoryServices {
  const tables = new InMemoryTables();
  const clock = options.clock ?? new ManualClock();
  const accounts = new InMemoryAccountStore(tables);
  const rateLimitCounter = new InMemoryRateLimitCounter(tables);
  const services: InMemoryServices = {
    tables,
    config: { ...DEFAULT_CONFIG, docsUrl: 'https://docs.example/docs', ...options.config },
    clock,
    jobs: new InMemoryJobStore(tables),
    batches: new InMemoryBatchStore(tables),
    batchStateMachine: null,
    uploads: new InMemoryUploadStore(tables),
    accounts,
    members: new InMemoryMemberStore(tables),
    identity: new UnconfiguredIdentityProvider(),
    uow: new InMemoryUnitOfWork(tables),
    workQueues: { standard: new InMemoryWorkQueue(), fast: new InMemoryWorkQueue() },
    background: new BackgroundWork(),
    objects: new InMemoryObjectStore(tables),
    objectEraser: new InMemoryObjectEraser(tables),
    erasure: new InMemoryErasureStore(tables),
    leases: new InMemoryLeaseStore(),
    inferencePlane: new RecordingInferencePlane(),
    log: new RecordingLog(),
    tokens: new UnconfiguredTokenVerifier(),
    payments: new UnconfiguredPaymentProvider(),
    usage: new InMemoryUsageStore(tables),
    idempotency: new InMemoryIdempotencyStore(tables),
    rateLimiter: new RateLimiter(rateLimitCounter),
    principals: new PrincipalCache(),
    rateLimitCounter,
    plans: new CachedPlanLookup(accounts, clock),
    faults: options.faults ?? NO_FAULTS,
    orchestrator: new UnconfiguredOrchestrator(),
    metrics: new RecordingMetrics(),
    webhooks: new InMemoryWebhookStore(tables),
    webhookQueue: new InMemoryWebhookQueue(),
    webhookSender: new ScriptedWebhookSender(),
    listenerHints: new ListenerHints(),
    streamDeadLetters: new RecordingQueue<string>(),
  };
  // admitted jobs reach their work queues as on AWS: the table's stream, read by the job stream's Pipes
  // (their retries back to back: the count is the stack's, the wait is no test's business)
  tables.stream.read(
    jobStreamPipes({
      send: async (lane, messages) => {
        for (const message of messages) await services.workQueues[lane].send(JSON.parse(message) as WorkMessage);
      },
      deadLetter: (message) => services.streamDeadLetters.send(message),
      log: services.log,
      retryDelayMs: () => 0,
    }),
  );
  return services;
}

/** An organisation as the service creates one: both balances funded through the ledger, its owner, and a key per mode. */
export function seedOrganization(
  services: Services,
  input: Partial<NewOrganization> = {},
): Promise<SeededOrganization> {
  return createOrganization(services, { name: 'In-memory Org', ...input });
}

/** What each domain unit test starts from: fresh services, their fault points for the test to arm, and one organisation. */
export interface InMemoryWorld {
  services: InMemoryServices;
  faults: ArmedFault;
  org: SeededOrganization;
}

export async function inMemoryWorld(organization: Partial<NewOrganization> = {}): Promise<InMemoryWorld> {
  const faults = new ArmedFault();
  const services = inMemoryServices({ faults });
  return { services, faults, org: await seedOrganization(services, organization) };
}
