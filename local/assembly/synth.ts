import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MANAGEMENT_AUDIENCE } from '../local-issuer.js';

const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

/** What the templates are made from: a change to any of these makes an assembly stale. */
const SOURCES = ['bin', 'lib', 'lambdas', 'statemachines', 'dashboard', 'docs', 'package-lock.json', 'cdk.json'];

/**
 * The context `start:assembly` synthesises with, so that the assembly has what `npm start` has:
 * the reference inference plane for live keys, and a JWT issuer for the management routes (any
 * issuer: locally the runtime's own stands in for it). cdk-nag is left to `cdk synth` and CI.
 */
export const LOCAL_SYNTH_CONTEXT: Readonly<Record<string, string>> = {
  referencePlane: 'true',
  jwtIssuer: 'https://issuer.local.invalid',
  jwtAudience: MANAGEMENT_AUDIENCE,
  nag: 'false',
};

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) => (name === 'node_modules' ? newest : Math.max(newest, newestChange(join(path, name)))),
    stat.mtimeMs,
  );
}

/** Whether `directory` holds an assembly at least as new as every source it is made from. */
export function isCurrent(directory: string): boolean {
  const manifest = join(directory, 'manifest.json');
  if (!existsSync(manifest)) return false;
  const synthesised = statSync(manifest).mtimeMs;
  return SOURCES.every((source) => newestChange(join(PROJECT_ROOT, source)) <= synthesised);
}

/** `cdk synth` into `directory` with the local context (the synth builds the dashboard and the docs site itself). */
export async function synthesise(
  directory: string,
  context: Readonly<Record<string, string>> = LOCAL_SYNTH_CONTEXT,
): Promise<void> {
  const args = [
    'cdk',
    'synth',
    '--quiet',
    '--output',
    directory,
    ...Object.entries(context).flatMap(([name, value]) => ['--context', `${name}=${value}`]),
  ];
  await new Promise<void>((done, fail) => {
    const child = spawn('npx', args, {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
    });
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`cdk synth exited with code ${code}`))));
  });
}
