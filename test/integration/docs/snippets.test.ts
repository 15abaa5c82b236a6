import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../local/stand-ins/free-port.js';
import { clientExample, curlExample, ENDPOINT_EXAMPLES } from '../../../site/endpoint-examples.js';
import { guides } from '../../../site/guides.js';
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
 * The endpoint pages (site/endpoint-pages.ts) are one template over a table: one page per way a call
 * is made stands for them all (a file sent multipart; uploads then JSON, polled), so adding pages
 * adds no time here. Their answers are checked without a runtime (test/unit/contracts/endpoint-examples.test.ts).
 */
const ENDPOINT_REPRESENTATIVES = ['plate.read', 'video.onboard'].map((slug) => {
  const example = ENDPOINT_EXAMPLES.find((candidate) => candidate.slug === slug)!;
  return {
    page: `endpoint-${slug.replace('.', '-')}`,
    markdown: `\`\`\`sh\n${curlExample(example)}\n\`\`\`\n\n\`\`\`ts\n${clientExample(example)}\n\`\`\`\n`,
  };
});
const PAGES = [
  ...guides().map((guide) => ({ page: guide.slug, markdown: guide.markdown })),
  ...ENDPOINT_REPRESENTATIVES,
];
/** client's one shell block packs and installs the client into your project: test/integration/client/package.test.ts runs exactly that */
const NOT_RUN_IN_SHELL = ['client'];
const EXAMPLE_BASE = 'http://localhost:3000';
const run = promisify(execFile);
const TSC = join(REPO, 'node_modules/.bin/tsc');

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

/** The client as a package in a scratch project: built from client/ into it, its one dependency linked. */
async function clientProject(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ais-snippets-'));
  const pkg = join(dir, 'node_modules', '@automotive-inference', 'client');
  mkdirSync(pkg, { recursive: true });
  await run(process.execPath, [TSC, '-p', join(REPO, 'client/tsconfig.build.json'), '--outDir', join(pkg, 'dist')]);
  const manifest = JSON.parse(readFileSync(join(REPO, 'client/package.json'), 'utf8'));
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ ...manifest, scripts: {} }));
  symlinkSync(join(REPO, 'node_modules/openapi-fetch'), join(dir, 'node_modules/openapi-fetch'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'snippets', private: true, type: 'module' }));
  return dir;
}

beforeAll(async () => {
  const port = await freePort();
  start = npmStart({ PORT: String(port), S3_PORT: String(await freePort()) });
  const [credentials, built] = await Promise.all([startedCredentials(start), clientProject()]);
  const all = JSON.parse(readFileSync(join(start.dir, '.local', 'credentials.json'), 'utf8'));
  env = { BASE: credentials.base_url, KEY: credentials.test_key, TOKEN: all.owner_jwt };
  project = built;
}, 180_000);

afterAll(() => {
  stopNpmStarts();
  if (project) rmSync(project, { recursive: true, force: true });
});

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

  // the pages are independent readers of one service: they run side by side, as the programs below do
  it.concurrent.each(PAGES.map(({ page }) => page).filter((page) => SHELL.some((block) => block.page === page)))(
    'every command of %s works against npm start',
    { timeout: 120_000 },
    async (page) => {
      const script = SHELL.filter((block) => block.page === page)
        .map((block) => block.code.replace(`BASE=${EXAMPLE_BASE}`, `BASE=${env.BASE}`))
        .join('\n');
      // curl fails on any HTTP error, except where the page prints the status itself (`-w '…%{http_code}…'`) to show an error
      const failing = `curl() { case " $* " in *" -w "*) command curl "$@" ;; *) command curl --fail-with-body "$@" ;; esac; }`;
      const ran = await run('bash', ['-c', `set -eo pipefail\n${failing}\n${script}`], {
        cwd: start.dir,
        timeout: 100_000,
        env: { ...process.env, ...env },
      }).catch((error: { stdout: string; stderr: string }) => {
        throw new Error(`${page}'s commands failed:\n${error.stdout}\n${error.stderr}`);
      });
      // an error answer carries its request id (a failed job's `error` does not): only the errors page shows one, on purpose
      if (page !== 'errors') expect(ran.stdout).not.toMatch(/"request_id":\s*"req_/);
    },
  );

  it('every TypeScript snippet compiles (strict) against the client and runs against npm start', {
    timeout: 240_000,
  }, async () => {
    expect(PROGRAMS.length).toBeGreaterThanOrEqual(3);
    const files = PROGRAMS.map((block, index) => {
      const file = join(project, `${block.page}-${index}.${block.lang === 'ts' ? 'ts' : 'mjs'}`);
      writeFileSync(file, block.code);
      return file;
    });
    const typed = files.filter((file) => file.endsWith('.ts'));
    // one tsc run checks every program and writes its JavaScript: each then starts as plain node, no loader
    const built = join(project, 'built');
    await run(process.execPath, strictConsumerCheck(typed, { emitTo: built }), { cwd: project }).catch(
      (error: { stdout: string }) => {
        throw new Error(`a snippet does not compile:\n${error.stdout}`);
      },
    );
    const runnable = (file: string) => (file.endsWith('.ts') ? join(built, `${basename(file, '.ts')}.js`) : file);
    // side by side: the programs mostly wait on their jobs, and starting one is cheap without a loader
    const outputs = await Promise.all(
      files.map((file) =>
        run(process.execPath, [runnable(file)], {
          cwd: start.dir,
          env: { ...process.env, ...env },
          timeout: 120_000,
        }).catch((error: { stdout: string; stderr: string }) => {
          throw new Error(`${file} failed:\n${readFileSync(file, 'utf8')}\n${error.stdout}\n${error.stderr}`);
        }),
      ),
    );
    for (const [i, ran] of outputs.entries()) expect(ran.stdout.trim(), files[i]).not.toBe('');
  });
});
