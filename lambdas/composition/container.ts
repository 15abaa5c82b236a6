import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { dynamodbSdk, lazy, s3Sdk, sfnSdk, sqsSdk, withoutCallLogging } from '../adapters/aws-sdk.js';
import { DynamoAccountStore } from '../adapters/dynamodb/account-store.js';
import { DynamoBatchStore } from '../adapters/dynamodb/batch-store.js';
import { DynamoErasureStore } from '../adapters/dynamodb/erasure-store.js';
import { HotPathCalls } from '../adapters/dynamodb/hot-path-calls.js';
import { DynamoIdempotencyStore } from '../adapters/dynamodb/idempotency-store.js';
import { DynamoJobStore } from '../adapters/dynamodb/job-store.js';
import { DynamoLeaseStore } from '../adapters/dynamodb/lease-store.js';
import { DynamoMemberStore } from '../adapters/dynamodb/member-store.js';
import { DynamoRateLimitCounter } from '../adapters/dynamodb/rate-limit-counter.js';
import { documentClient, type Table } from '../adapters/dynamodb/table.js';
import { DynamoUnitOfWork } from '../adapters/dynamodb/unit-of-work.js';
import { DynamoUploadStore } from '../adapters/dynamodb/upload-store.js';
import { DynamoUsageStore } from '../adapters/dynamodb/usage-store.js';
import { DynamoWebhookStore } from '../adapters/dynamodb/webhook-store.js';
import { EmfMetrics } from '../adapters/emf-metrics.js';
import { HttpInferencePlane } from '../adapters/http-inference-plane.js';
import { HttpWebhookSender } from '../adapters/http-webhook-sender.js';
import { createLog } from '../adapters/logger.js';
import { secretString } from '../adapters/runtime-secrets.js';
import { S3ObjectEraser } from '../adapters/s3-object-eraser.js';
import { S3ObjectStore } from '../adapters/s3-object-store.js';
import { type QueueSender, SqsQueue, sdkQueueSender } from '../adapters/sqs-queue.js';
import { SfnBatchRunner } from '../adapters/step-functions/sfn-batch-runner.js';
import { SfnOrchestrator } from '../adapters/step-functions/sfn-orchestrator.js';
import {
  UnconfiguredIdentityProvider,
  UnconfiguredInferencePlane,
  UnconfiguredOrchestrator,
  UnconfiguredPaymentProvider,
  UnconfiguredTokenVerifier,
} from '../adapters/unconfigured.js';
import { CachedPlanLookup } from '../domain/access/plan-lookup.js';
import { PrincipalCache } from '../domain/access/principal-cache.js';
import { RateLimiter } from '../domain/access/rate-limits.js';
import { PLANE_ENDPOINTS_VARIABLE, parsePlaneDeclaration } from '../domain/catalogue/plane-declaration.js';
import { BackgroundWork } from '../domain/kernel/background.js';
import { type Clock, systemClock } from '../domain/kernel/clock.js';
import { type FaultInjector, NO_FAULTS } from '../domain/kernel/faults.js';
import type { IdentityProvider, TokenVerifier } from '../domain/ports/access.js';
import type { BatchRunner } from '../domain/ports/batches.js';
import type { InspectionOrchestrator } from '../domain/ports/inspections.js';
import type { InferencePlane, WorkMessage } from '../domain/ports/jobs.js';
import type { PaymentProvider } from '../domain/ports/money.js';
import {
  DEFAULT_CONFIG,
  type Log,
  type Metrics,
  NO_METRICS,
  type ServiceConfig,
  type Services,
} from '../domain/ports/services.js';
import type { WebhookMessage, WebhookSender } from '../domain/ports/webhooks.js';
import { ListenerHints } from '../domain/webhooks/listener-hints.js';

/** Where the AWS services are: real AWS (no endpoints) or local stand-ins. */
export interface Infrastructure {
  region: string;
  tableName: string;
  bucketName: string;
  workQueueUrl: string;
  /** the work queue of endpoints that accept `wait=true` */
  fastWorkQueueUrl?: string;
  /** the webhook delivery queue (standard, with a DLQ) */
  webhookQueueUrl: string;
  /** the inspection state machine (AWS); absent locally, where the runtime brings its own orchestrator */
  stateMachineArn?: string;
  /** the batch state machine (AWS, a Distributed Map); absent locally, where the runtime brings its own, and in unit tests, where the driver admits a batch's lines in process */
  batchStateMachineArn?: string;
  endpoints?: { dynamodb: string; s3: string; sqs: string };
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export interface ContainerOptions {
  faults?: FaultInjector;
  infrastructure: Infrastructure;
  config?: Partial<ServiceConfig>;
  clock?: Clock;
  log?: Log;
  /** management-surface JWT verification; without one, every dashboard token is refused with 503 */
  tokens?: TokenVerifier;
  /** without one, billing answers 503 */
  payments?: PaymentProvider;
  /** who signs people in (the local issuer; Cognito comes from identity-provider.ts); without one, invitations answer 503 */
  identity?: IdentityProvider;
  /** the live inference plane, built from the finished container; without one, live jobs stay queued and expire */
  inferencePlane?: (container: Container) => InferencePlane;
  /** runs inspections, built from the finished container (its stage worker needs the services); default: Step Functions when `stateMachineArn` is set */
  orchestrator?: (container: Container) => InspectionOrchestrator;
  /** starts batch runs, built from the finished container (its worker needs the services); default: Step Functions when `batchStateMachineArn` is set */
  batchStateMachine?: (container: Container) => BatchRunner;
  /** posts webhooks; default: node:http(s) with the public-address check */
  webhookSender?: WebhookSender;
  /** business metrics; default none (the local runtime); EMF on AWS */
  metrics?: Metrics;
  /**
   * Told of every SDK client as it is made, before it sends anything (benchmarks count calls with
   * middleware; a client that caches its middleware stack would not see middleware added later).
   */
  instrumentClient?: (service: SdkService, client: SdkClient) => void;
  /**
   * How our queues send: the SDK by default. The local runtime hands them its in-process stand-in
   * queue, as its loops receive from it (docs/internals/architecture.md, "The local queue loops").
   */
  queueSender?: QueueSender;
}

export type SdkService = 'dynamodb' | 's3' | 'sqs';
export type SdkClient = DynamoDBClient | S3Client | SQSClient;

export interface Container extends Services {
  infrastructure: Infrastructure;
  /** S3 and SQS clients are made (and their SDKs imported) on first use */
  clients: {
    dynamodb: DynamoDBClient;
    dynamodbHotPath: DynamoDBClient;
    s3: () => Promise<S3Client>;
    sqs: () => Promise<SQSClient>;
  };
}

/** The composition root: clients are created once and injected into every adapter. */
export function buildContainer(options: ContainerOptions): Container {
  const infra = options.infrastructure;
  const common = { region: infra.region, ...(infra.credentials ? { credentials: infra.credentials } : {}) };
  const instrument = <T extends SdkClient>(service: SdkService, client: T): T => {
    withoutCallLogging(client);
    options.instrumentClient?.(service, client);
    return client;
  };
  const dynamodbSettings = { ...common, ...(infra.endpoints ? { endpoint: infra.endpoints.dynamodb } : {}) };
  const dynamodb = instrument('dynamodb', new dynamodbSdk.DynamoDBClient(dynamodbSettings));
  // Clients that resolve their middleware stack once per command class (`cacheMiddleware`), which is
  // most of the SDK's CPU on a small call. The document client refuses such a client, so the hot
  // path's DynamoDB calls have their own, on the same connections.
  const clients = {
    dynamodb,
    dynamodbHotPath: instrument(
      'dynamodb',
      new dynamodbSdk.DynamoDBClient({
        ...dynamodbSettings,
        cacheMiddleware: true,
        requestHandler: dynamodb.config.requestHandler,
      }),
    ),
    s3: lazy(async () =>
      instrument(
        's3',
        new (s3Sdk().S3Client)({
          ...common,
          cacheMiddleware: true,
          // The SDK's default (since 3.729) puts a CRC32 in every PutObject, and a presigned PUT URL
          // then carries the checksum of an empty body, which S3 holds the client's upload to.
          // No S3 call of ours requires one (TLS guards the bytes in transit), so none is computed.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          ...(infra.endpoints ? { endpoint: infra.endpoints.s3, forcePathStyle: true } : {}),
        }),
      ),
    ),
    sqs: lazy(async () =>
      instrument(
        'sqs',
        new (sqsSdk().SQSClient)({
          ...common,
          cacheMiddleware: true,
          ...(infra.endpoints ? { endpoint: infra.endpoints.sqs } : {}),
        }),
      ),
    ),
  };
  const table: Table = {
    doc: documentClient(clients.dynamodb),
    hot: new HotPathCalls(clients.dynamodbHotPath),
    name: infra.tableName,
  };
  const accounts = new DynamoAccountStore(table);
  const clock = options.clock ?? systemClock;
  const rateLimitCounter = new DynamoRateLimitCounter(table);
  const send = options.queueSender ?? sdkQueueSender(clients.sqs);
  const sfn = lazy(async () => {
    const sdk = sfnSdk();
    return { sdk, client: withoutCallLogging(new sdk.SFNClient(common)) };
  });
  const container: Container = {
    infrastructure: infra,
    clients,
    config: { ...DEFAULT_CONFIG, ...options.config },
    clock,
    jobs: new DynamoJobStore(table),
    batchStateMachine: infra.batchStateMachineArn
      ? new SfnBatchRunner(sfn, infra.batchStateMachineArn, infra.bucketName)
      : null,
    batches: new DynamoBatchStore(table),
    uploads: new DynamoUploadStore(table),
    accounts,
    members: new DynamoMemberStore(table),
    identity: options.identity ?? new UnconfiguredIdentityProvider(),
    uow: new DynamoUnitOfWork(table),
    workQueues: {
      standard: new SqsQueue<WorkMessage>(send, infra.workQueueUrl),
      // without a fast queue of its own (an older stack), every lane is the one work queue
      fast: new SqsQueue<WorkMessage>(send, infra.fastWorkQueueUrl ?? infra.workQueueUrl),
    },
    background: new BackgroundWork(),
    objects: new S3ObjectStore(clients.s3, infra.bucketName, clock),
    objectEraser: new S3ObjectEraser(clients.s3, infra.bucketName),
    erasure: new DynamoErasureStore(table),
    leases: new DynamoLeaseStore(table),
    inferencePlane: new UnconfiguredInferencePlane(),
    log: options.log ?? createLog(),
    tokens: options.tokens ?? new UnconfiguredTokenVerifier(),
    payments: options.payments ?? new UnconfiguredPaymentProvider(),
    usage: new DynamoUsageStore(table),
    idempotency: new DynamoIdempotencyStore(table),
    rateLimiter: new RateLimiter(rateLimitCounter),
    rateLimitCounter,
    principals: new PrincipalCache(),
    listenerHints: new ListenerHints(),
    plans: new CachedPlanLookup(accounts, clock),
    faults: options.faults ?? NO_FAULTS,
    orchestrator: new UnconfiguredOrchestrator(),
    metrics: options.metrics ?? NO_METRICS,
    webhooks: new DynamoWebhookStore(table),
    webhookQueue: new SqsQueue<WebhookMessage>(send, infra.webhookQueueUrl),
    webhookSender: options.webhookSender ?? new HttpWebhookSender(),
  };
  if (options.inferencePlane) container.inferencePlane = options.inferencePlane(container);
  if (options.batchStateMachine) container.batchStateMachine = options.batchStateMachine(container);
  if (options.orchestrator) container.orchestrator = options.orchestrator(container);
  else if (infra.stateMachineArn) {
    container.orchestrator = new SfnOrchestrator(sfn, infra.stateMachineArn);
  }
  return container;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`missing environment variable ${name}`);
  return value;
}

let awsContainer: Container | undefined;

/** With `INFERENCE_PLANE_URL` set, live jobs are submitted there over HTTPS; otherwise they stay queued and expire. */
function inferencePlaneFromEnvironment(): Pick<ContainerOptions, 'inferencePlane'> {
  const url = process.env.INFERENCE_PLANE_URL;
  if (!url) return {};
  const callbackUrl = required('INFERENCE_CALLBACK_URL');
  return {
    inferencePlane: (container) =>
      new HttpInferencePlane({
        url,
        callbackUrl,
        bucket: container.infrastructure.bucketName,
        secret: () => container.config.inferenceCallbackSecret,
        clock: container.clock,
        log: container.log,
      }),
  };
}

/**
 * The callback secret by ARN (INFERENCE_CALLBACK_SECRET_ARN), fetched through a bounded cache
 * before each invocation that may need it: no secret sits in a Lambda environment, and a rotation
 * needs no redeploy. INFERENCE_CALLBACK_SECRET (a plain value) remains for tests and LocalStack.
 */
export async function refreshRuntimeSecrets(container: Container): Promise<void> {
  const arn = process.env.INFERENCE_CALLBACK_SECRET_ARN;
  if (arn) container.config.inferenceCallbackSecret = await secretString(arn);
}

/**
 * `wait=true`'s ceiling as the stack sets it (`WAIT_CEILING_SECONDS`: 27 under API Gateway's
 * default 29 s integration timeout, 30 with `-c integrationTimeoutSeconds`); unset, the default.
 */
export function waitCeilingFromEnvironment(
  env: Record<string, string | undefined>,
): Partial<Pick<ServiceConfig, 'waitCeilingMs'>> {
  const value = env.WAIT_CEILING_SECONDS;
  if (value === undefined || value === '') return {};
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new Error(`WAIT_CEILING_SECONDS must be a positive number of seconds, not ${JSON.stringify(value)}`);
  return { waitCeilingMs: seconds * 1000 };
}

/** Lambda cold start: read the stack's environment once. */
export function containerFromEnvironment(): Container {
  awsContainer ??= buildContainer({
    infrastructure: {
      region: process.env.AWS_REGION ?? 'us-east-1',
      tableName: required('TABLE_NAME'),
      bucketName: required('BUCKET_NAME'),
      workQueueUrl: required('WORK_QUEUE_URL'),
      ...(process.env.FAST_WORK_QUEUE_URL ? { fastWorkQueueUrl: process.env.FAST_WORK_QUEUE_URL } : {}),
      webhookQueueUrl: required('WEBHOOK_QUEUE_URL'),
      ...(process.env.STATE_MACHINE_ARN ? { stateMachineArn: process.env.STATE_MACHINE_ARN } : {}),
      ...(process.env.BATCH_STATE_MACHINE_ARN ? { batchStateMachineArn: process.env.BATCH_STATE_MACHINE_ARN } : {}),
    },
    config: {
      docsUrl: process.env.DOCS_URL ?? DEFAULT_CONFIG.docsUrl,
      dashboardUrl: process.env.DASHBOARD_URL ?? DEFAULT_CONFIG.dashboardUrl,
      runtime: 'aws',
      inferenceCallbackSecret: process.env.INFERENCE_CALLBACK_SECRET || null,
      // the stack sets it on every function; a function without it serves no live endpoint
      planeEndpoints: parsePlaneDeclaration(process.env[PLANE_ENDPOINTS_VARIABLE] ?? ''),
      ...waitCeilingFromEnvironment(process.env),
    },
    metrics: new EmfMetrics(),
    ...inferencePlaneFromEnvironment(),
  });
  return awsContainer;
}
