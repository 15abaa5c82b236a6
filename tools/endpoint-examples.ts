import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE } from '../lambdas/domain/catalogue/catalogue.js';
import {
  contentTypeOf,
  ENDPOINT_EXAMPLES,
  type EndpointExample,
  EXAMPLES_DIR,
  SAMPLES_DIR,
  type StoredExample,
} from '../site/endpoint-examples.js';
import { stableExample } from '../site/stable-example.js';

/**
 * `npm run docs:examples` (with `npm start` running and BASE and KEY as the quickstart sets them):
 * makes each endpoint page's call against the runtime with a test key, so the fixture backend
 * answers on the repository's sample, and writes the answer to site/examples/<endpoint>.json with
 * its ids, times and signed URLs made stable. The pages show these files; test/unit/contracts/
 * endpoint-examples.test.ts fails when the fixture backend would now answer otherwise.
 */
const base = process.env.BASE?.replace(/\/$/, '');
const key = process.env.KEY;
if (!base || !key) throw new Error('set BASE and KEY as the quickstart does (npm start prints them)');
const auth = { Authorization: `Bearer ${key}` };

async function answerOf(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function upload(sample: string): Promise<string> {
  const bytes = readFileSync(join(SAMPLES_DIR, sample));
  const type = contentTypeOf(sample);
  const created = await answerOf(
    await fetch(`${base}/v1/uploads`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content_type: type, size_bytes: bytes.length, filename: sample }),
    }),
  );
  const put = await fetch(String(created.url), { method: 'PUT', headers: { 'Content-Type': type }, body: bytes });
  if (!put.ok) throw new Error(`PUT of ${sample}: ${put.status}`);
  return String(created.upload_ref);
}

async function call(example: EndpointExample): Promise<{ status: number; job: Record<string, unknown> }> {
  const endpoint = CATALOGUE[example.slug];
  const url = `${base}/v1/${example.slug}${endpoint.acceptsWait ? '?wait=true' : ''}`;
  let init: RequestInit;
  if (example.encoding === 'multipart') {
    const form = new FormData();
    for (const sample of example.samples)
      form.append(
        String(endpoint.fileField),
        new Blob([readFileSync(join(SAMPLES_DIR, sample))], { type: contentTypeOf(sample) }),
        sample,
      );
    for (const [name, value] of Object.entries(example.fields)) form.append(name, String(value));
    init = { method: 'POST', headers: auth, body: form };
  } else {
    const refs: string[] = [];
    for (const sample of example.samples) refs.push(await upload(sample));
    const inputs = refs.length === 0 ? {} : refs.length === 1 ? { input_ref: refs[0] } : { input_refs: refs };
    init = {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...inputs, ...example.fields }),
    };
  }
  const response = await fetch(url, init);
  let job = await answerOf(response);
  const status = response.status;
  // an endpoint that takes minutes has no wait=true: poll it, as the page's commands do
  while (!['succeeded', 'failed', 'canceled'].includes(String(job.status))) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    job = await answerOf(await fetch(`${base}/v1/jobs/${String(job.id)}`, { headers: auth }));
  }
  return { status: endpoint.acceptsWait ? status : 200, job };
}

mkdirSync(EXAMPLES_DIR, { recursive: true });
for (const example of ENDPOINT_EXAMPLES) {
  const { status, job } = await call(example);
  const stored: StoredExample = { slug: example.slug, status, job: stableExample(job, base) };
  writeFileSync(join(EXAMPLES_DIR, `${example.slug}.json`), `${JSON.stringify(stored, null, 2)}\n`);
  console.log(`${example.slug}: ${String(job.status)}`);
}
// in the repository's own JSON style, so that a rerun changes only what the answers changed
execFileSync(join('node_modules', '.bin', 'biome'), ['format', '--write', EXAMPLES_DIR], { stdio: 'inherit' });
