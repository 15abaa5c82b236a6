import type { PrincipalCache } from '../access/principal-cache.js';
import type { PlaneDeclaration } from '../catalogue/plane-declaration.js';
import type { BackgroundWork } from '../kernel/background.js';
import type { Clock } from '../kernel/clock.js';
import type { FaultInjector } from '../kernel/faults.js';
import type { ListenerHints } from '../webhooks/listener-hints.js';
import type {
  AccountStore,
  IdempotencyStore,
  IdentityProvider,
  MemberStore,
  PlanLookup,
  RateLimitCheck,
  RateLimitCounter,
  TokenVerifier,
} from './access.js';
import type { BatchRunner, BatchStore } from './batches.js';
import type { ErasureStore, ObjectEraser } from './erasure.js';
import type { InspectionOrchestrator } from './inspections.js';
import type { InferencePlane, JobStore, ObjectStore, UploadStore, WorkLane, WorkQueue } from './jobs.js';
import type { LeaseStore } from './leases.js';
import type { PaymentProvider, UsageStore } from './money.js';
import type { UnitOfWork } from './transactions.js';
import type { WebhookQueue, WebhookSender, WebhookStore } from './webhooks.js';

export interface ServiceConfig {
  /** base of `doc_url` in error envelopes */
  docsUrl: string;
  /** contract version stamped on webhook events */
  apiVersion: string;
  /** how long `wait=true` holds the connection */
  waitCeilingMs: number;
  /** lifetime of signed result-file URLs */
  signedUrlTtlSeconds: number;
  /** a live job the inference plane accepted is submitted again if it has not reported after this long */
  liveResubmitSeconds: number;
  /** a live job processing longer than this fails as `upstream_timeout` */
  liveProcessingTimeoutSeconds: number;
  /** a queued job is re-sent to the work queue after this long (covers a lost enqueue) */
  redriveAfterSeconds: number;
  /** `slow` scenario: seconds queued before dispatch, then seconds processing */
  slowScenarioSeconds: number;
  /** overrides every endpoint's queue timeout (local runtime and tests) */
  queueTimeoutOverrideSeconds: number | null;
  maxFileBytes: number;
  maxUploadBytes: number;
  /** lifetime of a presigned upload URL */
  uploadUrlTtlSeconds: number;
  /** an upload reference not used by a job within this long can no longer be used */
  uploadRefTtlSeconds: number;
  /** AWS keeps `wait` under API Gateway's limit; the local server may say otherwise */
  runtime: 'aws' | 'local';
  /** the dashboard's address: default return and success pages of billing sessions */
  dashboardUrl: string;
  /** shared secret of the inference plane's completion callback (`X-Inference-Signature`); null refuses every callback with 503 */
  inferenceCallbackSecret: string | null;
  /**
   * What the stack's live inference plane declares it computes (docs/internals/inference-plane.md): live calls
   * of any other endpoint are refused as `endpoint_not_available`. An empty list: no plane.
   */
  planeEndpoints: PlaneDeclaration;
  /** one webhook attempt waits this long for an answer (15 s, docs/internals/webhooks.md) */
  webhookTimeoutMs: number;
  /** a batch's driver holds its lease this long past each chunk; after that the sweeper may take the batch over (docs/internals/batches.md) */
  batchLeaseSeconds: number;
}

export const DEFAULT_CONFIG: ServiceConfig = {
  docsUrl: 'https://docs.automotive-inference.example/docs',
  apiVersion: '2026-08-01',
  waitCeilingMs: 28_000,
  signedUrlTtlSeconds: 3600,
  redriveAfterSeconds: 60,
  liveResubmitSeconds: 300,
  liveProcessingTimeoutSeconds: 3600,
  slowScenarioSeconds: 3,
  queueTimeoutOverrideSeconds: null,
  maxFileBytes: 10 * 1024 * 1024,
  maxUploadBytes: 500 * 1024 * 1024,
  uploadUrlTtlSeconds: 3600,
  uploadRefTtlSeconds: 24 * 3600,
  runtime: 'aws',
  dashboardUrl: 'https://dashboard.automotive-inference.example',
  inferenceCallbackSecret: null,
  // in-memory services and tests that bring their own plane; a deployed function reads its stack's declaration
  planeEndpoints: 'every_endpoint',
  webhookTimeoutMs: 15_000,
  batchLeaseSeconds: 60,
};

/** Business metrics (CloudWatch EMF on AWS; nothing locally). Names and dimensions: `lib/observability.ts` alarms on them. */
/**
 * The business metrics and the exact dimensions each is emitted with. CloudWatch matches a metric
 * by its whole dimension set, so the alarms and the dashboard (lib/observability.ts) read these.
 */
export const METRIC_DIMENSIONS = {
  Admissions: ['endpoint', 'mode'],
  Settlements: ['outcome', 'mode'],
  CreditsCharged: ['mode'],
  WebhookDeliveries: ['outcome'],
  JobsPastTimeout: ['state'],
} as const;

export type MetricName = keyof typeof METRIC_DIMENSIONS;
export type MetricDimensions<N extends MetricName> = Record<(typeof METRIC_DIMENSIONS)[N][number], string>;

export interface Metrics {
  count<N extends MetricName>(name: N, value: number, dimensions: MetricDimensions<N>): void;
}

export const NO_METRICS: Metrics = { count: () => undefined };

export interface Log {
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

/** Everything domain code needs, injected by a composition root. */
export interface Services {
  config: ServiceConfig;
  clock: Clock;
  jobs: JobStore;
  /** batches and the outcomes of their lines (docs/internals/batches.md) */
  batches: BatchStore;
  /**
   * The batch state machine (a Distributed Map on AWS); null where a batch's lines are admitted in
   * process (locally), by the runner `POST /v1/batches` builds: only that bundle carries the driver.
   */
  batchStateMachine: BatchRunner | null;
  uploads: UploadStore;
  accounts: AccountStore;
  /** memberships: the role in effect on every management request */
  members: MemberStore;
  /** who signs people in to the dashboard: the local issuer, the stack's Cognito user pool, or nobody */
  identity: IdentityProvider;
  uow: UnitOfWork;
  /** one work queue per lane */
  workQueues: Record<WorkLane, WorkQueue>;
  /** what a long-lived process finishes after answering (the local runtime's enqueue) */
  background: BackgroundWork;
  objects: ObjectStore;
  /** lists and deletes stored objects: redaction and retention */
  objectEraser: ObjectEraser;
  /** what redaction and retention change in the table */
  erasure: ErasureStore;
  /** leases on work that must never run twice at once: the sweeper's run */
  leases: LeaseStore;
  inferencePlane: InferencePlane;
  log: Log;
  /** verifies management-surface JWTs against the issuer's key set */
  tokens: TokenVerifier;
  payments: PaymentProvider;
  usage: UsageStore;
  idempotency: IdempotencyStore;
  rateLimiter: RateLimitCheck;
  /** principals of recently verified API keys (admissions re-check revocation in their transaction) */
  principals: PrincipalCache;
  rateLimitCounter: RateLimitCounter;
  /** organisation plans, cached briefly: they change only through billing */
  plans: PlanLookup;
  /** named crash points for fault-injection tests; does nothing in production */
  faults: FaultInjector;
  /** runs the inspection pipeline and answers its waiting stage tasks */
  orchestrator: InspectionOrchestrator;
  metrics: Metrics;
  /** webhook endpoints, events (the outbox) and deliveries */
  webhooks: WebhookStore;
  webhookQueue: WebhookQueue;
  webhookSender: WebhookSender;
  /** organisations recently found to have webhook endpoints */
  listenerHints: ListenerHints;
}
