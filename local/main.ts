import './quiet-warnings.js';
import { join } from 'node:path';
import { logLevelFromEnvironment } from '../lambdas/adapters/logger.js';
import { newCallbackSecret } from '../lambdas/domain/kernel/signatures.js';
import { buildDashboard } from './dashboard-site.js';
import { SIGNING_KEY_FILENAME } from './local-issuer.js';
import { startRuntime } from './runtime.js';
import { startDynamoDbLocal } from './stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from './stand-ins/object-and-queue-server.js';
import {
  announce,
  failStart,
  prepareLocalStart,
  seedCredentials,
  stopOnSignals,
  storedCredentials,
} from './start-conventions.js';

/** `INFERENCE_PLANE`: `reference` (the default) or `fixture`; anything else stops the start with the choices. */
function livePlaneFromEnvironment(value: string | undefined): 'reference' | 'fixture' {
  if (value === undefined || value === '' || value === 'reference') return 'reference';
  if (value === 'fixture') return 'fixture';
  throw new Error(`INFERENCE_PLANE=${value}: choose reference (the default) or fixture`);
}

/** `npm start`: the whole service on 127.0.0.1 with embedded stand-ins, data kept under .local/start/. */
async function main(): Promise<void> {
  const started = Date.now();
  const { port, objectsPort, home } = await prepareLocalStart('npm start', 'start');
  const inferenceCallbackSecret = storedCredentials(home)?.inference_callback_secret ?? newCallbackSecret();

  // the dashboard is rebuilt whenever its sources changed since the last build, so it always matches them
  await buildDashboard();
  const dynamodb = await startDynamoDbLocal({ dataDir: join(home, 'dynamodb') });
  // a fixed port keeps presigned URLs valid across restarts
  const objectsAndQueues = await startObjectAndQueueServer({ port: objectsPort, dataDir: join(home, 's3') });
  const runtime = await startRuntime({
    port,
    standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
    // the loops play the event source mappings on the stand-in queue that runs in this process
    queueTransport: objectsAndQueues.queues,
    signingKeyFile: join(home, SIGNING_KEY_FILENAME),
    // live keys run on the bundled reference plane (real OCR for what it declares), or with
    // INFERENCE_PLANE=fixture on the fixture plane (every endpoint, fixtures; wiring tests only)
    livePlane: livePlaneFromEnvironment(process.env.INFERENCE_PLANE),
    inferenceCallbackSecret,
    // one JSON line per request and per job transition (docs/internals/operations.md, "Logs"); LOG_LEVEL=WARN quiets them
    logLevel: logLevelFromEnvironment('INFO'),
    // WORKER_PAUSED=1: the work queue has no consumer, so test jobs stay queued until their queue
    // timeout (the sweeper still hands live jobs to the reference worker); the admission bench uses
    // it to measure an admission without the previous job's settlement competing for the same cores
    workerPaused: process.env.WORKER_PAUSED === '1',
  });

  const credentials = await seedCredentials(
    home,
    runtime.services,
    runtime.issuer,
    runtime.baseUrl,
    inferenceCallbackSecret,
    {
      dynamodb: dynamodb.endpoint,
      s3: objectsAndQueues.endpoint,
      table: runtime.services.infrastructure.tableName,
      bucket: runtime.services.infrastructure.bucketName,
    },
  );
  announce('Automotive Inference Service', credentials, started);
  stopOnSignals('start', async () => {
    await runtime.stop().catch(() => undefined);
    await objectsAndQueues.stop().catch(() => undefined);
    await dynamodb.stop();
  });
}

main().catch(failStart);
