import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The two local runtimes of a checkout: `npm start` and `npm run start:assembly`. */
export type RuntimeName = 'start' | 'assembly';
const RUNTIMES: readonly RuntimeName[] = ['start', 'assembly'];

/** `.local/` (or AIS_LOCAL_DIR): each runtime's home under it, and the default runtime's credentials. */
export const LOCAL_DIR = resolve(process.env.AIS_LOCAL_DIR ?? '.local');
export const CREDENTIALS_FILENAME = 'credentials.json';
/** Under a runtime's home: written once it is ready, removed when it stops. */
export const STAND_INS_FILENAME = 'stand-ins.json';

/** Where a running runtime keeps its data: what benchmarks, `npm run admin` and `plane:check` read. */
export interface StandInsFile {
  dynamodb: string;
  s3: string;
  table: string;
  bucket: string;
  /** the runtime's process, so a reader can tell a stale file from a running service */
  pid: number;
  /** the runtime's address, as its credentials name it */
  base_url?: string;
}

/**
 * A runtime's own directory (`.local/start/`, `.local/assembly/`): its DynamoDB Local and S3 data,
 * signing key, secrets and its own credentials. Apart, so that both runtimes may run from one
 * checkout, and switching between them finds each one's seeded organisation again.
 */
export function runtimeHome(runtime: RuntimeName, localDir = LOCAL_DIR): string {
  return join(localDir, runtime);
}

/** What `npm start` kept directly under `.local/` before each runtime had a home: moved into its home once. */
const LEGACY_START_ENTRIES = ['dynamodb', 's3', 'jwt-signing-key.json', CREDENTIALS_FILENAME];

/**
 * Creates a runtime's home. A checkout whose `.local/` still holds `npm start`'s data from before
 * the homes (`.local/dynamodb`…) has it moved into `.local/start/`, so nothing it seeded is lost.
 */
export function prepareHome(runtime: RuntimeName, localDir = LOCAL_DIR): string {
  const home = runtimeHome(runtime, localDir);
  if (!existsSync(home) && existsSync(join(localDir, 'dynamodb')) && runtime === 'start') {
    mkdirSync(home, { recursive: true });
    for (const entry of LEGACY_START_ENTRIES)
      if (existsSync(join(localDir, entry))) renameSync(join(localDir, entry), join(home, entry));
  }
  mkdirSync(home, { recursive: true });
  return home;
}

interface NamedCredentials {
  base_url: string;
  org_id: string;
}

function readJson<T>(file: string): T | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** Whether a process runs (EPERM: it runs, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A runtime's stand-ins file, when it is running. */
export function runningStandIns(home: string): StandInsFile | null {
  const standIns = readJson<StandInsFile>(join(home, STAND_INS_FILENAME));
  return standIns && isAlive(standIns.pid) ? standIns : null;
}

/**
 * The home of the runtime `.local/credentials.json` names: the one whose own credentials are the
 * same organisation at the same address. `null` without credentials; a directory laid out as one
 * runtime's home (its own stand-ins file beside the credentials) is its own answer.
 */
export function namedRuntimeHome(localDir = LOCAL_DIR): string | null {
  const named = readJson<NamedCredentials>(join(localDir, CREDENTIALS_FILENAME));
  if (!named) return null;
  if (existsSync(join(localDir, STAND_INS_FILENAME))) return localDir;
  const homes = existsSync(localDir)
    ? readdirSync(localDir).filter((name) => (RUNTIMES as readonly string[]).includes(name))
    : [];
  const match = homes.find((name) => {
    const own = readJson<NamedCredentials>(join(localDir, name, CREDENTIALS_FILENAME));
    return own?.org_id === named.org_id && own.base_url === named.base_url;
  });
  return match ? join(localDir, match) : null;
}

/** The other runtime's home, if it runs now: where `.local/credentials.json` points once this one stops. */
export function otherRunningHome(runtime: RuntimeName, localDir = LOCAL_DIR): string | null {
  const other = RUNTIMES.find((name) => name !== runtime)!;
  const home = runtimeHome(other, localDir);
  return runningStandIns(home) ? home : null;
}
