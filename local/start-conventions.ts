import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import type { Services } from '../lambdas/domain/ports/services.js';
import { addDevelopmentMembers } from './development-members.js';
import type { LocalIssuer } from './local-issuer.js';

/** Under `.local/`: written by `npm start` once ready, removed when it stops. */
export const STAND_INS_FILENAME = 'stand-ins.json';

/** Where a running `npm start` keeps its data: what benchmarks and `npm run admin` read. */
export interface StandInsFile {
  dynamodb: string;
  s3: string;
  table: string;
  bucket: string;
  /** the npm start process, so a reader can tell a stale file from a running service */
  pid: number;
}

/**
 * What `npm start` and `npm run start:assembly` share, so they behave the same to whoever runs
 * them: data under `.local/` (`--reset` starts clean), `PORT` and `S3_PORT`, a busy port said in
 * one line, the seeded organisation, `.local/credentials.json` and the JSON printed at start, and
 * stopping whole on any signal or when whoever started it is gone.
 */
export const LOCAL_DIR = resolve('.local');
const CREDENTIALS_FILE = join(LOCAL_DIR, 'credentials.json');
const STAND_INS_FILE = join(LOCAL_DIR, STAND_INS_FILENAME);

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

export class PortBusy extends Error {}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** `PORT` (default 3000) and `S3_PORT` (default PORT + 1), after `--reset` has cleared `.local/`; a busy one is said in one line, with the way out. */
export async function prepareLocalStart(command: string): Promise<{ port: number; objectsPort: number }> {
  if (process.argv.includes('--reset')) rmSync(LOCAL_DIR, { recursive: true, force: true });
  mkdirSync(LOCAL_DIR, { recursive: true });
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
  return { port, objectsPort };
}

export function storedCredentials(): LocalCredentials | null {
  return existsSync(CREDENTIALS_FILE) ? (JSON.parse(readFileSync(CREDENTIALS_FILE, 'utf8')) as LocalCredentials) : null;
}

/**
 * The seeded organisation of `.local/credentials.json`, created (10,000 credits in each mode)
 * when the data holds no such organisation, its development members (one per role), and fresh
 * tokens for each; written back and returned. Then where the stand-ins listen and what they hold
 * (`.local/stand-ins.json`, removed on stop): benchmarks measure their floor against the same
 * DynamoDB Local, and `npm run admin` works on this data while the service runs.
 */
export async function seedCredentials(
  services: Services,
  issuer: LocalIssuer,
  baseUrl: string,
  inferenceCallbackSecret: string,
  standIns: Omit<StandInsFile, 'pid'>,
): Promise<LocalCredentials> {
  let credentials = storedCredentials();
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
  writeFileSync(CREDENTIALS_FILE, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  writeFileSync(
    STAND_INS_FILE,
    `${JSON.stringify({ ...standIns, pid: process.pid } satisfies StandInsFile, null, 2)}\n`,
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
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    // nothing may take the stand-ins for a running service any more (npm run admin)
    rmSync(STAND_INS_FILE, { force: true });
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

/** The end of a start script's `main`: a busy port is one line without a stack trace. */
export function failStart(error: unknown): never {
  if (error instanceof PortBusy) console.error(error.message);
  else console.error(error);
  process.exit(1);
}
