import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../local/stand-ins/free-port.js';
import { clientExample, curlExample, ENDPOINT_EXAMPLES } from '../../../site/endpoint-examples.js';
import { guides } from '../../../site/guides.js';
import { TYPE_CHECKER } from '../../../tools/type-checker.js';
import { type NpmStart, npmStart, REPO, startedCredentials, stopNpmStarts } from '../../support/npm-start.js';
import { strictConsumerCheck } from '../../support/strict-consumer.js';

/**
 * Every command and snippet of the site's guides, run as a reader runs them against `npm start`:
 * each page's `sh` blocks in one bash session (curl failing on any HTTP error), each `ts` / `js`
 * block compiled (strict) against the typed client's declarations and run with the client as a
 * package. The pages are the site's own (site/guides.ts: every Markdown page of docs/ and the
 * generated ones), so a page added to the site is run too. Only the base URL differs: the
 * quickstart's `BASE=http://localhost:3000` line names the started service, as the site itself
 * does; every other page uses `$BASE`, `$KEY` and `$TOKEN` as the quickstart set them.
 */
/**
 * Every endpoint page (site/endpoint-pages.ts) too: its curl command and its client program, exactly as
 * the page shows them. Their stored answers are checked without a runtime (test/unit/contracts/endpoint-examples.test.ts).
 */
const ENDPOINT_PAGES = ENDPOINT_EXAMPLES.map((example) => ({
  page: `endpoint-${example.slug.replace('.', '-')}`,
  markdown: `\`\`\`sh\n${curlExample(example)}\n\`\`\`\n\n\`\`\`ts\n${clientExample(example)}\n\`\`\`\n`,
}));
const GUIDES = guides().map((guide) => ({ page: guide.slug, markdown: guide.markdown }));
const PAGES = [...GUIDES, ...ENDPOINT_PAGES];
/** client's one shell block packs and installs the client into your project: test/integration/client/package.test.ts runs exactly that */
const NOT_RUN_IN_SHELL = ['client'];
const EXAMPLE_BASE = 'http://localhost:3000';
const run = promisify(execFile);
/**
 * Readers at a time, across the file's pages and programs. All at once, every call shares the runtime with every
 * other, so each answers only when nearly all have: on a loaded 2-core runner uploads and `wait=true` calls passed
 * the 29 s integration timeout (504). A few at a time keep each call's time near its own work.
 */
const reader = pLimit(6);

interface Block {
  page: string;
  lang: string;
  code: string;
}

function blocksOf({ page, markdown }: { page: string; markdown: string }): Block[] {
  return [...markdown.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => ({
    page,
    lang: match[1]!,
    code: match[2]!,
  }));
}

const BLOCKS = PAGES.flatMap(blocksOf);
const SHELL = BLOCKS.filter((block) => block.lang === 'sh' && !NOT_RUN_IN_SHELL.includes(block.page));
const PROGRAMS = BLOCKS.filter((block) => block.lang === 'ts' || block.lang === 'js');

let start: NpmStart;
let env: Record<string, string>;
let project: string;
/** the programs, compiled while the service starts: the file to run of each, or why they do not compile */
let programs: Promise<{ files: string[]; runnable: string[] } | { error: string }>;

/** The client as a package in a scratch project: built from client/ into it, its one dependency linked. */
async function clientProject(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ais-snippets-'));
  const pkg = join(dir, 'node_modules', '@automotive-inference', 'client');
  mkdirSync(pkg, { recursive: true });
  await run(process.execPath, [
    TYPE_CHECKER,
    '-p',
    join(REPO, 'client/tsconfig.build.json'),
    '--outDir',
    join(pkg, 'dist'),
  ]);
  const manifest = JSON.parse(readFileSync(join(REPO, 'client/package.json'), 'utf8'));
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ ...manifest, scripts: {} }));
  symlinkSync(join(REPO, 'node_modules/openapi-fetch'), join(dir, 'node_modules/openapi-fetch'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'snippets', private: true, type: 'module' }));
  return dir;
}

/** One tsc run checks every program (strict) and writes its JavaScript: each then starts as plain node, no loader. */
async function compilePrograms(dir: string): Promise<{ files: string[]; runnable: string[] } | { error: string }> {
  const files = PROGRAMS.map((block, index) => {
    const file = join(dir, `${block.page}-${index}.${block.lang === 'ts' ? 'ts' : 'mjs'}`);
    writeFileSync(file, block.code);
    return file;
  });
  const built = join(dir, 'built');
  try {
    await run(
      process.execPath,
      strictConsumerCheck(
        files.filter((file) => file.endsWith('.ts')),
        { emitTo: built },
      ),
      {
        cwd: dir,
      },
    );
  } catch (error) {
    return { error: `a snippet does not compile:\n${(error as { stdout: string }).stdout}` };
  }
  return {
    files,
    runnable: files.map((file) => (file.endsWith('.ts') ? join(built, `${basename(file, '.ts')}.js`) : file)),
  };
}

beforeAll(async () => {
  const port = await freePort();
  start = npmStart({ PORT: String(port), S3_PORT: String(await freePort()) });
  const built = clientProject();
  // the compiling needs no service: it runs while the service starts (and the first pages run)
  programs = built.then(compilePrograms, (error: unknown) => ({ error: `the client does not build: ${error}` }));
  const [credentials] = await Promise.all([startedCredentials(start), built]);
  const all = JSON.parse(readFileSync(join(start.dir, '.local', 'credentials.json'), 'utf8'));
  env = { BASE: credentials.base_url, KEY: credentials.test_key, TOKEN: all.owner_jwt };
  project = await built;
}, 180_000);

afterAll(() => {
  stopNpmStarts();
  if (project) rmSync(project, { recursive: true, force: true });
});

function hasCommands(page: string): boolean {
  return SHELL.some((block) => block.page === page);
}

/** A page's `sh` blocks in one bash session, as a reader pastes them. */
function runCommandsOf(page: string): Promise<{ stdout: string; stderr: string }> {
  return reader(() => runScriptOf(page));
}

function runScriptOf(page: string): Promise<{ stdout: string; stderr: string }> {
  const script = SHELL.filter((block) => block.page === page)
    .map((block) => block.code.replace(`BASE=${EXAMPLE_BASE}`, `BASE=${env.BASE}`))
    .join('\n');
  // curl fails on any HTTP error, except where the page prints the status itself (`-w '…%{http_code}…'`) to show an error
  const failing = `curl() { case " $* " in *" -w "*) command curl "$@" ;; *) command curl --fail-with-body "$@" ;; esac; }`;
  return run('bash', ['-c', `set -eo pipefail\n${failing}\n${script}`], {
    cwd: start.dir,
    timeout: 100_000,
    env: { ...process.env, ...env },
  }).catch((error: { stdout: string; stderr: string }) => {
    throw new Error(`${page}'s commands failed:\n${error.stdout}\n${error.stderr}`);
  });
}

// every page is an independent reader of one service: the pages' commands run side by side (`reader` readers at a
// time), then the programs do
describe('the guides run as written', () => {
  it('name the service by one BASE line, never a hard-coded localhost:3000 elsewhere', () => {
    const service = new URL(EXAMPLE_BASE).host;
    for (const { page, markdown } of PAGES) {
      // the webhook receiver (127.0.0.1:4242) is the reader's own program, not the service
      const bases = markdown.split(service).length - 1;
      expect(bases, page).toBe(page === 'quickstart' ? 1 : 0);
      if (bases) expect(markdown, page).toContain(`BASE=${EXAMPLE_BASE}\n`);
    }
  });

  // one test for the endpoint pages, first so that its polled jobs overlap the guides: each page is one
  // short call (or a poll), too small for a slot of its own
  it.concurrent("every endpoint page's curl command works against npm start", { timeout: 120_000 }, async () => {
    const pages = ENDPOINT_PAGES.map(({ page }) => page).filter(hasCommands);
    expect(pages).toHaveLength(ENDPOINT_EXAMPLES.length);
    const ran = await Promise.allSettled(pages.map(runCommandsOf));
    const failed = ran.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []));
    expect(failed, failed.join('\n')).toEqual([]);
    for (const [i, outcome] of ran.entries()) {
      const { stdout } = (outcome as PromiseFulfilledResult<{ stdout: string }>).value;
      expect(JSON.parse(stdout).status, pages[i]).toBe('succeeded');
    }
  });

  it.concurrent.each(GUIDES.map(({ page }) => page).filter(hasCommands))(
    'every command of %s works against npm start',
    { timeout: 120_000 },
    async (page) => {
      const ran = await runCommandsOf(page);
      // an error answer carries its request id (a failed job's `error` does not): only the errors page shows one, on purpose
      if (page !== 'errors') expect(ran.stdout).not.toMatch(/"request_id":\s*"req_/);
    },
  );

  // after the pages' commands, side by side: the programs mostly wait on their jobs, and they are compiled already
  it('every TypeScript snippet compiles (strict) against the client and runs against npm start', {
    timeout: 240_000,
  }, async () => {
    expect(PROGRAMS.length).toBeGreaterThanOrEqual(ENDPOINT_EXAMPLES.length);
    const compiled = await programs;
    if ('error' in compiled) throw new Error(compiled.error);
    const { files, runnable } = compiled;
    const outputs = await Promise.all(
      runnable.map((file, i) =>
        reader(() =>
          run(process.execPath, [file], {
            cwd: start.dir,
            env: { ...process.env, ...env },
            timeout: 120_000,
          }),
        ).catch((error: { stdout: string; stderr: string }) => {
          throw new Error(`${files[i]} failed:\n${readFileSync(files[i]!, 'utf8')}\n${error.stdout}\n${error.stderr}`);
        }),
      ),
    );
    for (const [i, ran] of outputs.entries()) {
      expect(ran.stdout.trim(), files[i]).not.toBe('');
      // an endpoint page's program prints its job's status first: the call must have done its work
      if (PROGRAMS[i]!.page.startsWith('endpoint-')) expect(ran.stdout, files[i]).toMatch(/^succeeded /);
    }
  });
});
