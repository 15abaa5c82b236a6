import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../local/stand-ins/free-port.js';
import { type NpmStart, npmStart, REPO, startedCredentials, stopNpmStarts } from '../../support/npm-start.js';

/**
 * The README's "Try it" section, run as a reader runs it: every `sh` block, in order, in one bash
 * session at the root of a fresh checkout where `npm start` runs. Only the port differs (the
 * README's `localhost:3000` becomes a free one). Each top-level command's output is checked.
 */
const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const MARK = '@@readme-command';

function tryItSection(): string {
  const start = README.indexOf('\n## Try it\n');
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

/** The section's shell blocks, split into top-level commands: continuation lines are indented, a function body runs to its closing `}`. */
function tryItCommands(): string[] {
  const blocks = [...tryItSection().matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const commands: string[] = [];
  for (const block of blocks) {
    let inFunction = false;
    let continued = false;
    for (const line of block.split('\n')) {
      if (line.trim() === '') continue;
      const startsCommand = !inFunction && !continued && !/^\s/.test(line);
      if (startsCommand) commands.push(line);
      else commands[commands.length - 1] += `\n${line}`;
      if (/^\w+\(\) \{\s*$/.test(line)) inFunction = true;
      if (line === '}') inFunction = false;
      continued = /\\\s*$/.test(line);
    }
  }
  return commands;
}

interface Ran {
  command: string;
  output: string;
  status: number;
}

/** Runs the commands in one bash, marking where each one's output starts and what it exited with; echoes what each assignment set. */
function runInBash(commands: string[], cwd: string, port: number): Ran[] {
  const script = commands
    .map((command, i) => {
      const assigned = /^([A-Z_]+)=/.exec(command)?.[1];
      const local = command.replaceAll('localhost:3000', `localhost:${port}`);
      // a command's output need not end its line: the status mark starts a line of its own
      return `echo "${MARK} ${i}"\n${local}\nreadme_status=$?; echo; echo "${MARK} status $readme_status"${assigned ? `\necho "${assigned}=$${assigned}"` : ''}`;
    })
    .join('\n');
  const run = spawnSync('bash', ['-c', script], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, PATH: process.env.PATH },
  });
  const parts = run.stdout.split(new RegExp(`^${MARK} (\\d+)\\n`, 'm')).slice(1);
  const ran: Ran[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const body = parts[i + 1]!;
    const status = new RegExp(`^${MARK} status (\\d+)$`, 'm').exec(body);
    const printed = body.slice(0, status?.index ?? body.length).trim();
    const assignment = status ? body.slice(status.index + status[0].length).trim() : '';
    ran.push({
      command: commands[Number(parts[i])]!,
      output: [printed, assignment].filter(Boolean).join('\n'),
      status: status ? Number(status[1]) : -1,
    });
  }
  if (run.stderr.trim()) ran.push({ command: '(stderr)', output: run.stderr, status: 0 });
  return ran;
}

const json = (text: string) => JSON.parse(text) as Record<string, any>;

/** What each kind of command must print, by what it says. A command no rule names must print nothing, or JSON that is not an error. */
const EXPECTATIONS: ReadonlyArray<{ matches: RegExp; check: (output: string) => void }> = [
  { matches: /^BASE=/, check: (out) => expect(out).toMatch(/^BASE=http:\/\/localhost:\d+$/) },
  { matches: /^KEY=/, check: (out) => expect(out).toMatch(/^KEY=chk_test_\w+$/) },
  { matches: /^LIVE=/, check: (out) => expect(out).toMatch(/^LIVE=chk_live_\w+$/) },
  { matches: /^JOB=/, check: (out) => expect(out).toMatch(/^JOB=job_\w+$/) },
  { matches: /^VIDEO=/, check: (out) => expect(out).toMatch(/^VIDEO=upl_\w+$/) },
  { matches: /^INSPECTION=/, check: (out) => expect(out).toMatch(/^INSPECTION=job_\w+$/) },
  { matches: /^\w+\(\) \{/, check: (out) => expect(out).toBe('') },
  {
    matches: /X-Svc-Test-Scenario: model_error/,
    check: (out) =>
      expect(json(out)).toMatchObject({ object: 'job', endpoint: 'plate.read', status: 'queued', livemode: false }),
  },
  {
    matches: /plate\.read\?wait=true.*\$LIVE/,
    check: (out) =>
      expect(json(out)).toMatchObject({ object: 'job', endpoint: 'plate.read', status: 'succeeded', livemode: true }),
  },
  {
    matches: /tire\.read\?wait=true/,
    check: (out) =>
      expect(json(out)).toMatchObject({
        object: 'job',
        endpoint: 'tire.read',
        status: 'succeeded',
        result: expect.any(Object),
      }),
  },
  {
    matches: /\/v1\/plate\.read /,
    check: (out) => expect(json(out)).toMatchObject({ object: 'job', endpoint: 'plate.read', status: 'queued' }),
  },
  {
    matches: /\/v1\/video\.onboard/,
    check: (out) => expect(json(out)).toMatchObject({ object: 'job', endpoint: 'video.onboard', status: 'queued' }),
  },
  {
    matches: /\/v1\/endpoints/,
    check: (out) => expect(json(out).data.map((entry: { slug: string }) => entry.slug)).toContain('plate.read'),
  },
  { matches: /\/v1\/openapi\.json/, check: (out) => expect(json(out).openapi).toMatch(/^3\.1\./) },
  {
    matches: /^poll \$JOB/,
    check: (out) =>
      expect(json(out)).toMatchObject({
        object: 'job',
        endpoint: 'plate.read',
        status: 'succeeded',
        result: expect.any(Object),
      }),
  },
  {
    matches: /^poll \$INSPECTION/,
    check: (out) => {
      const inspection = json(out);
      expect(inspection).toMatchObject({ object: 'job', status: 'succeeded' });
      expect(inspection.stages).toHaveLength(8);
    },
  },
];

let start: NpmStart;
let port: number;
beforeAll(async () => {
  port = await freePort();
  start = npmStart({ PORT: String(port), S3_PORT: String(await freePort()) });
  await startedCredentials(start);
}, 90_000);
afterAll(stopNpmStarts);

describe('the README runs as written', () => {
  it('its "Try it" section sets BASE once and every command uses it, with the sample files that ship in samples/', () => {
    const section = tryItSection();
    expect(section.match(/localhost:\d+|127\.0\.0\.1:\d+/g)).toEqual(['localhost:3000']);
    expect(section).toMatch(/^BASE=http:\/\/localhost:3000 /m);
    // nowhere else does the README name the address in a command
    expect(README.match(/localhost:3000/g)).toHaveLength(1);
    const files = [...section.matchAll(/(?:@|upload )"?(samples\/[\w.]+)/g)].map((match) => match[1]!);
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(() => readFileSync(join(REPO, file)), file).not.toThrow();
  });

  it('every command of "Try it" works against npm start, and prints what the README says it does', {
    timeout: 150_000,
  }, () => {
    const commands = tryItCommands();
    expect(commands.length).toBeGreaterThan(10);
    // every rule names a command the README shows: a rule that matches nothing is a README that changed
    const unmatched = EXPECTATIONS.filter(
      (expectation) => !commands.some((command) => expectation.matches.test(command)),
    );
    expect(unmatched.map((expectation) => String(expectation.matches))).toEqual([]);
    const ran = runInBash(commands, start.dir, port);
    expect(ran.map((entry) => entry.command)).toEqual(commands);
    for (const { command, output, status } of ran) {
      const what = `${command}\n→ ${output}`;
      expect(status, what).toBe(0);
      const rule = EXPECTATIONS.find((expectation) => expectation.matches.test(command));
      try {
        if (rule) rule.check(output);
        else if (output !== '') expect(json(output).error, what).toBeUndefined();
      } catch (error) {
        throw new Error(`${what}\n${(error as Error).message}`);
      }
    }
  });
});
