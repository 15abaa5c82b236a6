import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import type { Services } from '../lambdas/domain/ports/services.js';
import { addDevelopmentMembers } from './development-members.js';
import type { LocalIssuer } from './local-issuer.js';
import {
  CREDENTIALS_FILENAME,
  LOCAL_DIR,
  namedRuntimeHome,
  otherRunningHome,
  prepareHome,
  type RuntimeName,
  runningStandIns,
  runtimeHome,
  STAND_INS_FILENAME,
  type StandInsFile,
} from './runtime-homes.js';

/**
 * What `npm start` and `npm run start:assembly` share, so they behave the same to whoever runs
 * them: data under `.local/`, each in its own home (`.local/start/`, `.local/assembly/`; `--reset`
 * starts that one clean), `PORT` and `S3_PORT`, a busy port said in one line, the seeded
 * organisation, `.local/credentials.json` (the runtime started last, which `npm run admin` and the
 * README's commands reach) and the JSON printed at start, and stopping whole on any signal or when
 * whoever started it is gone.
 */
const CREDENTIALS_FILE = join(LOCAL_DIR, CREDENTIALS_FILENAME);

export interface LocalCredentials {
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

/** A start that cannot go on, said in one line (a busy port, an assembly it will not run). */
export class StartRefused extends Error {}
export class PortBusy extends StartRefused {}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * `PORT` (default 3000) and `S3_PORT` (default PORT + 1), after `--reset` has cleared the runtime's
 * home; a busy one is said in one line, with the way out. Returns the ports and the runtime's home.
 */
export async function prepareLocalStart(
  command: string,
  runtime: RuntimeName,
): Promise<{ port: number; objectsPort: number; home: string }> {
  const running = runningStandIns(runtimeHome(runtime));
  // one DynamoDB Local per data directory: a second one would fight the first over its files
  if (running)
    throw new StartRefused(
      `${command} already runs from this checkout (pid ${running.pid}, ${running.base_url ?? 'starting'}) on the data in ${runtimeHome(runtime)}: stop it first, or use it. The other runtime (${runtime === 'start' ? 'npm run start:assembly' : 'npm start'}) keeps data of its own and may run beside it on other ports.`,
    );
  if (process.argv.includes('--reset')) rmSync(runtimeHome(runtime), { recursive: true, force: true });
  const home = prepareHome(runtime);
  const port = Number(process.env.PORT ?? 3000);
  const objectsPort = Number(process.env.S3_PORT ?? port + 1);
  for (const { port: wanted, variable } of [
    { port, variable: 'PORT' },
    { port: objectsPort, variable: 'S3_PORT' },
  ]) {
    if (await isFree(wanted)) continue;
    const api = port + 100;
    throw new PortBusy(
      `Port ${wanted} (${variable}) on 127.0.0.1 is already in use, perhaps by another npm start. Pick free ports, e.g. PORT=${api} S3_PORT=${api + 1} ${command}`,
    );
  }
  return { port, objectsPort, home };
}

/** A runtime's own credentials (its seeded organisation), kept in its home. */
export function storedCredentials(home: string): LocalCredentials | null {
  const file = join(home, CREDENTIALS_FILENAME);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalCredentials) : null;
}

/**
 * The seeded organisation of the runtime's own credentials (`<home>/credentials.json`), created
 * (10,000 credits in each mode) when its data holds no such organisation, its development members
 * (one per role), and fresh tokens for each; written back, to `.local/credentials.json` too (this
 * runtime is now the one the README's commands reach), and returned. Then where the stand-ins
 * listen and what they hold (`<home>/stand-ins.json`, removed on stop): benchmarks measure their
 * floor against the same DynamoDB Local, and `npm run admin` works on this data while it runs.
 */
export async function seedCredentials(
  home: string,
  services: Services,
  issuer: LocalIssuer,
  baseUrl: string,
  inferenceCallbackSecret: string,
  standIns: Omit<StandInsFile, 'pid'>,
): Promise<LocalCredentials> {
  let credentials = storedCredentials(home);
  if (!credentials || !(await services.accounts.getOrganization(credentials.org_id))) {
    const seeded = await createOrganization(services, {
      name: 'Dev Organisation',
      plan: 'pro',
      owner: { email: 'owner@example.com' },
    });
    credentials = {
      base_url: baseUrl,
      org_id: seeded.organization.id,
      live_key: seeded.liveKey,
      test_key: seeded.testKey,
    };
  }
  const orgId = credentials.org_id;
  await addDevelopmentMembers(services, orgId);
  const [ownerJwt, adminJwt, memberJwt] = await Promise.all(
    (['owner', 'admin', 'member'] as const).map((role) => issuer.token(orgId, role)),
  );
  credentials = {
    ...credentials,
    base_url: baseUrl,
    owner_jwt: ownerJwt!,
    admin_jwt: adminJwt!,
    member_jwt: memberJwt!,
    inference_callback_secret: inferenceCallbackSecret,
  };
  const own = `${JSON.stringify(credentials, null, 2)}\n`;
  writeFileSync(join(home, CREDENTIALS_FILENAME), own, { mode: 0o600 });
  writeFileSync(CREDENTIALS_FILE, own, { mode: 0o600 });
  writeFileSync(
    join(home, STAND_INS_FILENAME),
    `${JSON.stringify({ ...standIns, pid: process.pid, base_url: baseUrl } satisfies StandInsFile, null, 2)}\n`,
  );
  return credentials;
}

/** The lines printed once the service is ready; the JSON is `.local/credentials.json`. */
export function announce(what: string, credentials: LocalCredentials, startedMs: number): void {
  const baseUrl = credentials.base_url;
  console.log(`${what} listening on ${baseUrl} (ready in ${((Date.now() - startedMs) / 1000).toFixed(1)} s)`);
  console.log(
    `Dashboard (owner, 15 minutes; a fresh link: npm run token -- --link): ${baseUrl}/dashboard/login#token=${credentials.owner_jwt}`,
  );
  console.log(`Documentation: ${baseUrl}/docs`);
  console.log(`Credentials (also in ${CREDENTIALS_FILE}):`);
  console.log(JSON.stringify(credentials, null, 2));
}

/**
 * Stops everything on SIGINT, SIGTERM or SIGHUP, or once this process is re-parented: npm
 * forwards SIGINT and SIGTERM (the start scripts `exec` node, so no shell swallows them) but dies
 * of SIGHUP without passing it on, so being re-parented is how this process learns that whoever
 * started it is gone.
 */
export function stopOnSignals(runtime: RuntimeName, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    // nothing may take the stand-ins for a running service any more (npm run admin)
    rmSync(join(runtimeHome(runtime), STAND_INS_FILENAME), { force: true });
    handOverCredentials(runtime);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    await stop().catch(() => undefined);
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown());
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown();
  }, ORPHAN_CHECK_MS).unref();
}

/**
 * When the runtime `.local/credentials.json` names stops while the other one still runs, the file
 * names the other one again, so the README's commands and `npm run admin` reach a running service.
 */
function handOverCredentials(runtime: RuntimeName): void {
  if (namedRuntimeHome() !== runtimeHome(runtime)) return;
  const other = otherRunningHome(runtime);
  if (other) copyFileSync(join(other, CREDENTIALS_FILENAME), CREDENTIALS_FILE);
}

/** The end of a start script's `main`: a refused start (a busy port…) is one line without a stack trace. */
export function failStart(error: unknown): never {
  if (error instanceof StartRefused) console.error(error.message);
  else console.error(error);
  process.exit(1);
}
