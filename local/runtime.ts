import type { Server } from 'node:http';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { JoseTokenVerifier } from '../lambdas/adapters/jose-token-verifier.js';
import { createLog, type LogLevel } from '../lambdas/adapters/logger.js';
import { LocalPaymentProvider } from '../lambdas/adapters/payments/local-payment-provider.js';
import { SQS_MAX_MESSAGE_BYTES } from '../lambdas/adapters/sqs-queue.js';
import { buildContainer, type Container, type ContainerOptions } from '../lambdas/composition/container.js';
import { normalizeEmail } from '../lambdas/domain/access/memberships.js';
import { type PlaneDeclaration, REFERENCE_PLANE_ENDPOINTS } from '../lambdas/domain/catalogue/plane-declaration.js';
import { sweepDueJobs } from '../lambdas/domain/jobs/processing.js';
import { jobLogFields } from '../lambdas/domain/jobs/transition-log.js';
import { type Clock, systemClock } from '../lambdas/domain/kernel/clock.js';
import type { FaultInjector } from '../lambdas/domain/kernel/faults.js';
import { newCallbackSecret } from '../lambdas/domain/kernel/signatures.js';
import type { InferencePlane } from '../lambdas/domain/ports/jobs.js';
import type { Log, ServiceConfig } from '../lambdas/domain/ports/services.js';
import type { WebhookSender } from '../lambdas/domain/ports/webhooks.js';
import { newWebhookSecret } from '../lambdas/domain/webhooks/signing.js';
import { ROUTES } from '../lambdas/http/routes/index.js';
import { fixtureModel } from '../lambdas/planes/fixture-model.js';
import { TesseractEngine } from '../lambdas/planes/ocr/tesseract-engine.js';
import { ocrModel } from '../lambdas/planes/ocr-model.js';
import { sandboxBackend } from '../lambdas/sandbox/backend.js';
import { handleBatchRunAction } from '../lambdas/workers/batch-run.js';
import { handleStageAction } from '../lambdas/workers/inspection-stage.js';
import { DEFAULT_INTEGRATION_TIMEOUT_SECONDS } from '../lib/wait-ceiling.js';
import { buildDocsSite, type SiteFile } from '../site/site.js';
import { batchDefinitionJson } from '../statemachines/batch.js';
import { inspectionDefinitionJson, substitute } from '../statemachines/inspection.js';
import { createApiServer } from './api-server.js';
import { BundledInferencePlane } from './bundled-inference-plane.js';
import { dashboardFiles, ensureDashboardBuild } from './dashboard-site.js';
import { nudgeOnJobPuts } from './job-insert-nudge.js';
import { startJobStream } from './job-stream.js';
import { LocalAuthorizationServer } from './local-authorization.js';
import { LocalIdentityProvider } from './local-identity.js';
import {
  type LocalIssuer,
  loadOrCreateSigningKey,
  localIssuer,
  MANAGEMENT_AUDIENCE,
  publicKeySet,
} from './local-issuer.js';
import { ensureBucket, ensureQueue, ensureTable } from './provision.js';
import {
  type QueueTransport,
  sdkQueueTransport,
  startWebhookLoop,
  startWorkerLoop,
  type WebhookLoop,
  type WorkerLoop,
} from './queue-loop.js';
import { bindRouteHandlers, type ErrorObserver } from './route-handlers.js';
import { executionStatusEvent } from './stand-ins/execution-status-event.js';
import { freePort } from './stand-ins/free-port.js';
import { LocalBatchRunner } from './stand-ins/local-batch-runner.js';
import { LOCAL_AWS_CREDENTIALS, localAccountCredentials } from './stand-ins/object-and-queue-server.js';
import { LocalStepFunctions } from './stand-ins/step-functions-engine.js';
import { type SweeperLoop, startSweeperLoop } from './sweeper-loop.js';

/** Locally every lambda:invoke task calls the stage worker in process; the ARN only fills the placeholder. */
const LOCAL_STAGE_FUNCTION_ARN = 'arn:aws:lambda:us-east-1:000000000000:function:inspection-stage';
/** Likewise the batch-run worker, and the batch state machine's ARN in the status changes it hears of. */
const LOCAL_BATCH_RUN_FUNCTION_ARN = 'arn:aws:lambda:us-east-1:000000000000:function:batch-run';
const LOCAL_BATCH_STATE_MACHINE_ARN = 'arn:aws:states:us-east-1:000000000000:stateMachine:batch';

export interface StandInEndpoints {
  dynamodb: string;
  s3: string;
  sqs: string;
}

export type LivePlaneChoice = 'none' | 'reference' | 'fixture' | InferencePlane;

/** What a local plane declares it computes, unless the runtime's config names a declaration of its own. */
function declarationOf(plane: LivePlaneChoice): PlaneDeclaration {
  if (plane === 'none') return [];
  if (plane === 'reference') return REFERENCE_PLANE_ENDPOINTS;
  return 'every_endpoint';
}

export interface RuntimeOptions {
  standIns: StandInEndpoints;
  /** crash points for fault-injection tests */
  faults?: FaultInjector;
  /** 0 picks a free port */
  port: number;
  /** names of the table, bucket and queue; tests use unique ones to share stand-ins */
  resourcePrefix?: string;
  /**
   * The local account it signs as (default: the local key). Runtimes that share one DynamoDB Local
   * as different accounts have a database each there, so a stream read scans only their own records.
   */
  localAccount?: string;
  clock?: Clock;
  config?: Partial<ServiceConfig>;
  log?: Log;
  /** without `log`: the threshold of the runtime's own JSON log lines (default WARN; npm start uses LOG_LEVEL, INFO by default) */
  logLevel?: LogLevel;
  /** start with the worker paused, so jobs stay queued until resumed */
  workerPaused?: boolean;
  /** 0 disables the timer; tests call `sweeper.sweep()` */
  sweepIntervalMs?: number;
  /** where the JWT signing key persists (npm start); without it the key lives in memory (tests) */
  signingKeyFile?: string;
  /**
   * Who runs live jobs, and so which endpoints live keys may call (docs/internals/inference-plane.md).
   * `none` (default): nobody; every endpoint is `planned` for live keys. `reference`: the bundled
   * reference plane, which computes what it declares (`REFERENCE_PLANE_ENDPOINTS`) and calls the
   * completion callback over HTTP (npm start). `fixture`: the fixture plane, every endpoint
   * answered by its sandbox model, `-fixture` in `model_version` (wiring tests). A plane of a
   * test's own computes every endpoint unless `config.planeEndpoints` says otherwise.
   */
  livePlane?: LivePlaneChoice;
  /** told of every error answer with its route and code (tests check them against the declared codes) */
  onErrorResponse?: ErrorObserver;
  /** the completion callback's shared secret (npm start keeps one in .local/); default: a fresh one */
  inferenceCallbackSecret?: string;
  /** posts webhooks (tests may count or fail requests); default: node:http(s) */
  webhookSender?: WebhookSender;
  /** told of every SDK client of the service as it is made (benchmarks count calls) */
  instrumentClient?: ContainerOptions['instrumentClient'];
  /** how the loops and the service's own sends reach the queues (the stand-in's own, in process, when it runs here); default: the SDK */
  queueTransport?: QueueTransport;
  /**
   * API Gateway's integration timeout of the inference routes, after which the adapter answers 504
   * (default: the wait ceiling plus 2 s, as a stack deployed with `-c integrationTimeoutSeconds`
   * has it (lib/wait-ceiling.ts), and never below API Gateway's default 29 s, which every other route has).
   */
  inferenceIntegrationTimeoutMs?: number;
}

export interface Runtime {
  baseUrl: string;
  services: Container;
  worker: WorkerLoop;
  sweeper: SweeperLoop;
  /** plays the webhook delivery Lambda */
  webhookLoop: WebhookLoop;
  /** where the job stream's Pipes put a batch they could not send to a work queue after their retries */
  streamDeadLetterQueueUrl: string;
  issuer: LocalIssuer;
  /** the local payment provider (its pages and signed events) */
  payments: LocalPaymentProvider;
  /** runs the inspection state machine (statemachines/inspection.ts) in process */
  orchestrator: LocalStepFunctions;
  /** runs the batch state machine (statemachines/batch.ts), its Distributed Map included, in process */
  batchOrchestrator: LocalStepFunctions;
  stop(): Promise<void>;
}

async function destroyClients(container: Container): Promise<void> {
  container.clients.dynamodb.destroy();
  (await container.clients.s3()).destroy();
  (await container.clients.sqs()).destroy();
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(port));
  });
}

/** The whole service in one process: API adapter, worker and sweeper over the stand-ins. */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const prefix = options.resourcePrefix ?? 'ais';
  const infrastructure = {
    region: 'us-east-1',
    tableName: `${prefix}-main`,
    bucketName: `${prefix}-files`,
    workQueueUrl: '',
    fastWorkQueueUrl: '',
    webhookQueueUrl: '',
    endpoints: options.standIns,
    credentials: options.localAccount ? localAccountCredentials(options.localAccount) : { ...LOCAL_AWS_CREDENTIALS },
  };
  const port = options.port || (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const log: Log = options.log ?? createLog('automotive-inference-local', options.logLevel ?? 'WARN');
  const inferenceCallbackSecret = options.inferenceCallbackSecret ?? newCallbackSecret();
  const livePlane = options.livePlane ?? 'none';
  const config = {
    runtime: 'local' as const,
    waitCeilingMs: 30_000,
    docsUrl: `${baseUrl}/docs`,
    // the dashboard's root: its billing page, the checkout's and portal's default way back, is `/dashboard/billing` (docs/dashboard.md)
    dashboardUrl: `${baseUrl}/dashboard`,
    planeEndpoints: declarationOf(livePlane),
    ...options.config,
    inferenceCallbackSecret,
  };
  const provisioning = buildContainer({ infrastructure, config, log });
  const table = await ensureTable(provisioning.clients.dynamodb, infrastructure.tableName);
  await ensureBucket(await provisioning.clients.s3(), infrastructure.bucketName);
  // the message size the stack declares on its queues (lib/queues.ts), so a message AWS refuses is refused here
  const queueAttributes = { VisibilityTimeout: '30', MaximumMessageSize: String(SQS_MAX_MESSAGE_BYTES) };
  const sqs = await provisioning.clients.sqs();
  infrastructure.workQueueUrl = await ensureQueue(sqs, `${prefix}-work`, queueAttributes);
  infrastructure.fastWorkQueueUrl = await ensureQueue(sqs, `${prefix}-work-fast`, queueAttributes);
  infrastructure.webhookQueueUrl = await ensureQueue(sqs, `${prefix}-webhooks`, queueAttributes);
  // what the job stream's Pipes could not send after their retries (the stack's StreamDeadLetterQueue)
  const streamDeadLetterQueueUrl = await ensureQueue(sqs, `${prefix}-stream-dlq`, queueAttributes);
  await destroyClients(provisioning);

  const clock = options.clock ?? systemClock;
  const signingKey = await loadOrCreateSigningKey(options.signingKeyFile);
  const issuer = localIssuer(baseUrl, signingKey, clock);
  const tokens = JoseTokenVerifier.local(publicKeySet(signingKey), {
    issuer: baseUrl,
    audience: MANAGEMENT_AUDIENCE,
    clock,
  });
  const payments = new LocalPaymentProvider({ baseUrl, webhookSecret: newWebhookSecret(), clock });
  // the reference plane's OCR engine: its worker thread starts on the first live read and stops with the runtime
  const ocrEngine = livePlane === 'reference' ? new TesseractEngine() : undefined;
  const inferencePlane = (container: Container): InferencePlane =>
    livePlane === 'reference' || livePlane === 'fixture'
      ? new BundledInferencePlane({
          model: ocrEngine ? ocrModel(ocrEngine) : fixtureModel,
          services: container,
          baseUrl,
          bucket: infrastructure.bucketName,
          secret: inferenceCallbackSecret,
        })
      : (livePlane as InferencePlane);
  let orchestrator: LocalStepFunctions | undefined;
  // the job stream starts once the container it reads for is built; until then there is nothing to wake
  let wakeJobStream = () => {};
  let batchOrchestrator: LocalStepFunctions | undefined;
  const services = buildContainer({
    infrastructure,
    config,
    log,
    clock,
    instrumentClient: (service, client) => {
      options.instrumentClient?.(service, client);
      // a job item put by this process is read off the stream at once, not at the next idle poll
      if (service === 'dynamodb') nudgeOnJobPuts(client as DynamoDBClient, () => wakeJobStream());
    },
    ...(options.queueTransport ? { queueSender: options.queueTransport.send } : {}),
    tokens,
    payments,
    identity: new LocalIdentityProvider({
      baseUrl,
      clientId: issuer.audience,
      sign: ({ orgId, userId, role }) => issuer.token(orgId, role, { userId }),
    }),
    // the very ASL file CDK deploys, run on aws-local-stepfunctions
    orchestrator: (container) =>
      (orchestrator = new LocalStepFunctions({
        definition: substitute(inspectionDefinitionJson(), { StageFunctionArn: LOCAL_STAGE_FUNCTION_ARN }),
        invoke: (payload) => handleStageAction(container, payload),
        log,
        logFields: async (id) => {
          const inspection = await container.jobs.get(id);
          return inspection ? jobLogFields(inspection) : { job_id: id };
        },
      })),
    // the batch ASL CDK deploys: its Distributed Map reads the input file from the S3 stand-in
    batchStateMachine: (container) =>
      new LocalBatchRunner(
        (batchOrchestrator = new LocalStepFunctions({
          definition: substitute(batchDefinitionJson(), { BatchRunFunctionArn: LOCAL_BATCH_RUN_FUNCTION_ARN }),
          invoke: (payload) => handleBatchRunAction(container, payload),
          log,
          readObject: async (bucket, key) => {
            const object = await (await container.clients.s3()).send(
              new GetObjectCommand({ Bucket: bucket, Key: key }),
            );
            return (await object.Body?.transformToString('utf8')) ?? '';
          },
          // the FailedRuns rule (lib/batches.ts): a run that did not succeed lets go of the batch's lease
          onExecutionEnd: (name, status, input) => {
            if (status === 'SUCCEEDED') return;
            const event = executionStatusEvent({
              stateMachineArn: LOCAL_BATCH_STATE_MACHINE_ARN,
              name,
              status,
              input,
              region: infrastructure.region,
              account: '000000000000',
            });
            container.background.add(
              handleBatchRunAction(container, event).then(
                () => undefined,
                (error: unknown) =>
                  log.warn('a failed batch run kept its lease', { batch_id: name, error: String(error) }),
              ),
            );
          },
        })),
        infrastructure.bucketName,
      ),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.webhookSender ? { webhookSender: options.webhookSender } : {}),
    ...(livePlane === 'none' ? {} : { inferencePlane }),
  });
  const backend = sandboxBackend(services);
  const queues = options.queueTransport ?? sdkQueueTransport(await services.clients.sqs());
  // admitted jobs reach their work queues as on AWS: the table's stream, read by the job stream's Pipes
  const jobStream = startJobStream({
    dynamodb: { endpoint: options.standIns.dynamodb, accessKeyId: infrastructure.credentials.accessKeyId },
    streamArn: table.LatestStreamArn!,
    queues,
    queueUrls: { standard: infrastructure.workQueueUrl, fast: infrastructure.fastWorkQueueUrl },
    deadLetterQueueUrl: streamDeadLetterQueueUrl,
    log,
  });
  wakeJobStream = jobStream.nudge;
  // a Pipe starts at LATEST: nothing is admitted before it reads the stream
  await jobStream.positioned;
  // the documentation site is rendered on its first request (about a second of CPU), not at every start
  let docs: Map<string, SiteFile> | undefined;
  const docsFile = (pathname: string) =>
    pathname === '/docs' || pathname.startsWith('/docs/')
      ? (docs ??= buildDocsSite({ serverUrl: baseUrl })).get(pathname)
      : undefined;
  await ensureDashboardBuild();
  const dashboard = dashboardFiles();
  // never below API Gateway's own default: tests shorten the wait ceiling, not the gateway
  const inferenceTimeoutMs =
    options.inferenceIntegrationTimeoutMs ??
    Math.max(DEFAULT_INTEGRATION_TIMEOUT_SECONDS * 1000, services.config.waitCeilingMs + 2000);
  const server = createApiServer(
    services,
    await bindRouteHandlers(services, ROUTES, options.onErrorResponse),
    {
      files: (pathname) => docsFile(pathname) ?? dashboard(pathname),
      objectOrigins: [new URL(options.standIns.s3).origin],
      issuer: new LocalAuthorizationServer({
        baseUrl,
        clientId: issuer.audience,
        clock,
        findMember: async (orgId, email) =>
          (await services.members.list(orgId)).find((m) => m.email === normalizeEmail(email)) ?? null,
        sign: (member) => issuer.token(member.org_id, member.role, { userId: member.id }),
      }),
    },
    (route) => (route.slug !== undefined ? inferenceTimeoutMs : DEFAULT_INTEGRATION_TIMEOUT_SECONDS * 1000),
  );
  await listen(server, port);

  const worker = startWorkerLoop(
    services,
    queues,
    [infrastructure.workQueueUrl, infrastructure.fastWorkQueueUrl],
    backend,
    {
      paused: options.workerPaused ?? false,
    },
  );
  const webhookLoop = startWebhookLoop(services, queues, infrastructure.webhookQueueUrl);
  const sweeper = startSweeperLoop(services, options.sweepIntervalMs ?? 1000);
  // the stand-in queue lives in memory: after a restart, re-send every unfinished job now
  await sweepDueJobs(services, { lookAheadSeconds: services.config.liveResubmitSeconds + 1 });

  return {
    baseUrl,
    services,
    worker,
    sweeper,
    webhookLoop,
    streamDeadLetterQueueUrl,
    issuer,
    payments,
    orchestrator: orchestrator!,
    batchOrchestrator: batchOrchestrator!,
    stop: async () => {
      // first: no pipeline step may run while the rest shuts down; inspections stay processing for the next start,
      // batches leased to their run until the sweeper takes them over
      await orchestrator?.stop();
      await batchOrchestrator?.stop();
      if (services.inferencePlane instanceof BundledInferencePlane) await services.inferencePlane.stop();
      await ocrEngine?.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await sweeper.stop();
      await services.background.drain();
      await worker.stop();
      // after everything that may insert a job (the worker's stage starts included): its last read hands them on
      await jobStream.stop();
      await webhookLoop.stop();
      await destroyClients(services);
    },
  };
}
