import './quiet-warnings.js';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { createOrganization } from '../domain/access/organizations.js';
import { newCallbackSecret } from '../domain/kernel/signatures.js';
import { SIGNING_KEY_FILENAME } from './local-issuer.js';
import { addDevelopmentMembers } from './development-members.js';
import { STAND_INS_FILENAME, type StandInsFile } from './stand-ins-file.js';
import { logLevelFromEnvironment } from '../adapters/logger.js';
import { startRuntime } from './runtime.js';
import { buildDashboard } from './dashboard-site.js';
import { startDynamoDbLocal } from './stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from './stand-ins/object-and-queue-server.js';

/** `npm start`: the whole service on 127.0.0.1 with embedded stand-ins, data kept under .local/. */
const LOCAL_DIR = resolve('.local');
const CREDENTIALS_FILE = join(LOCAL_DIR, 'credentials.json');
const STAND_INS_FILE = join(LOCAL_DIR, STAND_INS_FILENAME);

interface LocalCredentials {
  base_url: string;
  org_id: string;
  live_key: string;
  test_key: string;
  /** fresh 15-minute dashboard tokens for the seeded organisation, minted at every start */
  owner_jwt?: string;
  admin_jwt?: string;
  member_jwt?: string;
  /** signs the reference inference worker's completion callbacks; generated once, kept across restarts */
  inference_callback_secret?: string;
}

const SHUTDOWN_GRACE_MS = 10_000;
const ORPHAN_CHECK_MS = 500;

class PortBusy extends Error {}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A busy port is said in one line, with the way out, before anything starts. */
async function requireFreePorts(ports: ReadonlyArray<{ port: number; variable: string }>): Promise<void> {
  for (const { port, variable } of ports) {
    if (await isFree(port)) continue;
    const api = Number(process.env.PORT ?? 3000) + 100;
    throw new PortBusy(`Port ${port} (${variable}) on 127.0.0.1 is already in use, perhaps by another npm start. Pick free ports, e.g. PORT=${api} S3_PORT=${api + 1} npm start`);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  if (process.argv.includes('--reset')) rmSync(LOCAL_DIR, { recursive: true, force: true });
  mkdirSync(LOCAL_DIR, { recursive: true });
  const port = Number(process.env.PORT ?? 3000);
  const objectsPort = Number(process.env.S3_PORT ?? port + 1);
  await requireFreePorts([
    { port, variable: 'PORT' },
    { port: objectsPort, variable: 'S3_PORT' },
  ]);
  const stored: LocalCredentials | null = existsSync(CREDENTIALS_FILE) ? (JSON.parse(readFileSync(CREDENTIALS_FILE, 'utf8')) as LocalCredentials) : null;
  const inferenceCallbackSecret = stored?.inference_callback_secret ?? newCallbackSecret();

  // the dashboard is rebuilt at every start (about a second), so it always matches the sources
  await buildDashboard();
  const dynamodb = await startDynamoDbLocal({ dataDir: join(LOCAL_DIR, 'dynamodb') });
  // a fixed port keeps presigned URLs valid across restarts
  const objectsAndQueues = await startObjectAndQueueServer({ port: objectsPort, dataDir: join(LOCAL_DIR, 's3') });
  const runtime = await startRuntime({
    port,
    standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
    // the loops play the event source mappings on the stand-in queue that runs in this process
    queueTransport: objectsAndQueues.queues,
    signingKeyFile: join(LOCAL_DIR, SIGNING_KEY_FILENAME),
    // live keys run on the bundled reference worker, which calls the completion callback
    livePlane: 'reference',
    inferenceCallbackSecret,
    // one JSON line per request and per job transition (docs/operations.md, "Logs"); LOG_LEVEL=WARN quiets them
    logLevel: logLevelFromEnvironment('INFO'),
    // WORKER_PAUSED=1: the work queue has no consumer, so test jobs stay queued until their queue
    // timeout (the sweeper still hands live jobs to the reference worker); the admission bench uses
    // it to measure an admission without the previous job's settlement competing for the same cores
    workerPaused: process.env.WORKER_PAUSED === '1',
  });

  let credentials = stored;
  if (!credentials || !(await runtime.services.accounts.getOrganization(credentials.org_id))) {
    const seeded = await createOrganization(runtime.services, { name: 'Dev Organisation', plan: 'pro', owner: { email: 'owner@example.com' } });
    credentials = { base_url: runtime.baseUrl, org_id: seeded.organization.id, live_key: seeded.liveKey, test_key: seeded.testKey };
  }
  const orgId = credentials.org_id;
  await addDevelopmentMembers(runtime.services, orgId);
  const [ownerJwt, adminJwt, memberJwt] = await Promise.all((['owner', 'admin', 'member'] as const).map((role) => runtime.issuer.token(orgId, role)));
  credentials = {
    ...credentials,
    base_url: runtime.baseUrl,
    owner_jwt: ownerJwt!,
    admin_jwt: adminJwt!,
    member_jwt: memberJwt!,
    inference_callback_secret: inferenceCallbackSecret,
  };
  writeFileSync(CREDENTIALS_FILE, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // where the stand-ins listen and what they hold: benchmarks measure their floor against the same
  // DynamoDB Local, and `npm run admin` works on this data while npm start runs
  const standIns: StandInsFile = {
    dynamodb: dynamodb.endpoint,
    s3: objectsAndQueues.endpoint,
    table: runtime.services.infrastructure.tableName,
    bucket: runtime.services.infrastructure.bucketName,
    pid: process.pid,
  };
  writeFileSync(STAND_INS_FILE, `${JSON.stringify(standIns, null, 2)}\n`);

  console.log(`Automotive Inference Service listening on ${runtime.baseUrl} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`Dashboard (owner, 15 minutes; a fresh link: npm run token -- --link): ${runtime.baseUrl}/dashboard/login#token=${ownerJwt}`);
  console.log(`Documentation: ${runtime.baseUrl}/docs`);
  console.log(`Credentials (also in ${CREDENTIALS_FILE}):`);
  console.log(JSON.stringify(credentials, null, 2));

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    rmSync(STAND_INS_FILE, { force: true });
    await runtime.stop().catch(() => undefined);
    await objectsAndQueues.stop().catch(() => undefined);
    await dynamodb.stop();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown());
  // npm forwards SIGINT and SIGTERM (the start script `exec`s node, so no shell swallows them)
  // but dies of SIGHUP without passing it on: being re-parented is how this process learns that
  // whoever started it is gone
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown();
  }, ORPHAN_CHECK_MS).unref();
}

main().catch((error: unknown) => {
  if (error instanceof PortBusy) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
