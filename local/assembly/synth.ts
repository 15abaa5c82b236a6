import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
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

/** The newest file under `path` (node_modules aside), with its time. */
function newestChange(path: string): { path: string; mtimeMs: number } {
  if (!existsSync(path)) return { path, mtimeMs: 0 };
  const stat = statSync(path);
  if (!stat.isDirectory()) return { path, mtimeMs: stat.mtimeMs };
  return readdirSync(path).reduce<{ path: string; mtimeMs: number }>(
    (newest, name) => {
      if (name === 'node_modules') return newest;
      const candidate = newestChange(join(path, name));
      return candidate.mtimeMs > newest.mtimeMs ? candidate : newest;
    },
    { path, mtimeMs: stat.mtimeMs },
  );
}

/** Whether some template of the assembly holds `text` (a context value the synth wrote into it). */
function templatesHold(directory: string, text: string): boolean {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.template.json'))
    .some((name) => readFileSync(join(directory, name), 'utf8').includes(text));
}

/**
 * Why the assembly in `directory` cannot be run as it is, in one clause, or `null` when it can:
 * there is none, it is older than a source it is made from (naming the newest), or it was
 * synthesised without the local switches (`cdk synth` as docs/internals/deploy.md runs it: no inference
 * plane, no JWT issuer, so live jobs would expire and the management routes answer 503).
 */
export function staleness(directory: string): string | null {
  const manifest = join(directory, 'manifest.json');
  if (!existsSync(manifest)) return `${directory} holds no cloud assembly yet`;
  const synthesised = statSync(manifest).mtimeMs;
  const newest = SOURCES.map((source) => newestChange(join(PROJECT_ROOT, source))).reduce((a, b) =>
    b.mtimeMs > a.mtimeMs ? b : a,
  );
  if (newest.mtimeMs > synthesised)
    return `${directory} is older than the sources (${relative(PROJECT_ROOT, newest.path)} changed since it was synthesised)`;
  const local =
    templatesHold(directory, `"${LOCAL_SYNTH_CONTEXT.jwtIssuer}"`) && templatesHold(directory, '"ReferencePlaneUrl"');
  if (!local)
    return `${directory} was synthesised without the local switches (${Object.entries(LOCAL_SYNTH_CONTEXT)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(' ')}), as a plain cdk synth makes it`;
  return null;
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
