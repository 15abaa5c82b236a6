import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/functions.js';

/**
 * docs/internals/deploy.md promises that every command it shows is one a script of the repository runs:
 * `.ci/run` (install), `.ci/fresh-clone-synth` (clone, synth) or `bin/day-one` (the rest, on AWS or
 * LocalStack, whose `--dry-run` prints each command it would run).
 */

/** Setting up the tester's own machine: nothing of ours can run these for them. */
const MACHINE_SET_UP = [/^npm i -g aws-cdk-local aws-cdk@2$/, /^export LOCALSTACK_AUTH_TOKEN=…$/, /^cd /];

/** Words of a shell command, quotes dropped, `${NAME}` written `$NAME`. */
function words(command: string): string[] {
  return command
    .replace(/["']/g, '')
    .replace(/\$\{(\w+)\}/g, '$$$1')
    .split(/\s+/)
    .filter(Boolean);
}

/** The guide's words appear in the runner's command in order (a path may stand for its last segment); `<…>` or `…` in the guide stands for any one word. */
function runs(runner: string[], guide: string[]): boolean {
  let at = 0;
  for (const word of guide) {
    const placeholder = /^<.*>$|…/.test(word);
    while (at < runner.length && !(placeholder || runner[at] === word || runner[at]!.endsWith(`/${word}`))) at++;
    if (at === runner.length) return false;
    at++;
  }
  return true;
}

function guideCommands(): string[] {
  const guide = readFileSync(join(PROJECT_ROOT, 'docs/internals/deploy.md'), 'utf8');
  return [...guide.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1]!.split('\n'))
    .flatMap((line) => line.split(' && '))
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

let runners: string[][];

beforeAll(async () => {
  const dryRun = async (...args: string[]) => {
    const { stderr } = await promisify(execFile)(
      join(PROJECT_ROOT, 'bin/day-one'),
      ['--dry-run', '--destroy', ...args],
      { cwd: PROJECT_ROOT },
    );
    return stderr
      .split('\n')
      .filter((line) => line.startsWith('+ '))
      .map((line) => line.slice(2));
  };
  const ci = ['.ci/run', '.ci/fresh-clone-synth'].flatMap((script) =>
    readFileSync(join(PROJECT_ROOT, script), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('#')),
  );
  runners = [...(await dryRun()), ...(await dryRun('--localstack')), ...ci].map(words);
});

/** Every `-c name=…` the app reads (bin/app.ts and the settings it hands on), by the names it asks for. */
function contextNames(): string[] {
  const sources = ['bin/app.ts', 'lib/production-settings.ts'].map((file) =>
    readFileSync(join(PROJECT_ROOT, file), 'utf8'),
  );
  return [...new Set(sources.flatMap((source) => [...source.matchAll(/context\('(\w+)'\)/g)].map((m) => m[1]!)))];
}

describe('docs/internals/deploy.md', () => {
  it('lists every setting the app reads in its context table', () => {
    const guide = readFileSync(join(PROJECT_ROOT, 'docs/internals/deploy.md'), 'utf8');
    const table = guide.slice(guide.indexOf('| context | effect |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n');
    const names = contextNames();
    expect(names).toEqual(
      expect.arrayContaining(['domainName', 'alarmEmail', 'stageRateLimit', 'cloudFrontWebAclArn']),
    );
    const missing = names.filter((name) => !rows.some((row) => row.startsWith('|') && row.includes(`\`${name}=`)));
    expect(missing).toEqual([]);
  });

  it('shows only commands that .ci/fresh-clone-synth or bin/day-one runs', () => {
    const commands = guideCommands();
    expect(commands.length).toBeGreaterThan(10);
    const unrun = commands.filter(
      (command) =>
        !MACHINE_SET_UP.some((pattern) => pattern.test(command)) &&
        !runners.some((runner) => runs(runner, words(command))),
    );
    expect(unrun).toEqual([]);
  });

  it('is held to it: a command no script runs is caught', () => {
    expect(runners.some((runner) => runs(runner, words('npx cdk deploy -c referencePlane=true')))).toBe(true);
    expect(runners.some((runner) => runs(runner, words('npx cdk deploy --all')))).toBe(false);
    expect(runners.some((runner) => runs(runner, words('npm run admin -- delete-organization --org $ORG_ID')))).toBe(
      false,
    );
  });
});
