import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CATALOGUE, ENDPOINT_SLUGS, type EndpointSlug } from '../lambdas/domain/catalogue/catalogue.js';
import { exampleParams } from '../lambdas/schemas/params/examples.js';

export const SAMPLES_DIR = resolve(import.meta.dirname, '..', 'samples');
/** Where `npm run docs:examples` writes each endpoint's real answer, committed (test/unit/contracts/endpoint-examples.test.ts checks it). */
export const EXAMPLES_DIR = resolve(import.meta.dirname, 'examples');

/**
 * The call each endpoint page shows: the repository's sample that shows what the endpoint reads
 * (docs/test-fixtures.md), sent the way the endpoint takes it. Endpoints that take one file send
 * it as a multipart field; those that take uploads (video, spins, inspections) upload each sample
 * first and send the `upload_ref`s; pricing takes JSON only.
 */
export interface EndpointExample {
  slug: EndpointSlug;
  /** files of samples/, in order */
  samples: readonly string[];
  encoding: 'multipart' | 'json';
  /** parameters sent with the call (beyond the input) */
  fields: Record<string, unknown>;
}

const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', wav: 'audio/wav', mp4: 'video/mp4' };

export function contentTypeOf(sample: string): string {
  return CONTENT_TYPES[sample.slice(sample.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/** The sample each endpoint is shown with: what it reads, per docs/test-fixtures.md. */
const SAMPLE_OF: Partial<Record<EndpointSlug, readonly string[]>> = {
  'vin.read': ['vin.jpg'],
  'document.read': ['registration.jpg'],
  'engine.detect': ['engine.wav'],
  'video.onboard': ['walkaround.mp4'],
  'damage.detect': ['damaged.jpg'],
  'damage.severity': ['damaged.jpg'],
  'tire.read': ['tire.jpg'],
  'tire.detect': ['tire.jpg'],
  'pricing.vehicle': [],
  'pricing.repair': [],
  // a spin and a viewer take eight views at least: the car's two photos, four times
  'render.360': Array.from({ length: 8 }, (_, i) => (i % 2 ? 'damaged.jpg' : 'car.jpg')),
  'viewer.hotspots': Array.from({ length: 8 }, (_, i) => (i % 2 ? 'damaged.jpg' : 'car.jpg')),
  'render.video': ['car.jpg', 'damaged.jpg'],
  // an inspection takes the walk-around video, and photos for the close-ups
  inspections: ['walkaround.mp4', 'damaged.jpg'],
};

export const ENDPOINT_EXAMPLES: readonly EndpointExample[] = ENDPOINT_SLUGS.map((slug) => {
  const endpoint = CATALOGUE[slug];
  const samples = SAMPLE_OF[slug] ?? ['car.jpg'];
  const multipart = endpoint.fileField !== null && !endpoint.requiresJsonEncoding;
  // pricing has no input but its parameters, which it requires
  const fields = slug === 'pricing.vehicle' || slug === 'pricing.repair' ? exampleParams[slug] : {};
  return { slug, samples, encoding: multipart ? 'multipart' : 'json', fields };
});

/** An endpoint page's path: `/docs/reference/plate-read` (no dot: a written site file would take it for an extension). */
export function endpointPagePath(slug: EndpointSlug): string {
  return `/docs/reference/${slug.replace('.', '-')}`;
}

/** The answer `npm run docs:examples` stored for the endpoint: the job as the runtime answered, ids, times and URLs made stable. */
export interface StoredExample {
  slug: EndpointSlug;
  status: number;
  job: Record<string, unknown>;
}

export function storedExample(slug: EndpointSlug): StoredExample | null {
  const file = join(EXAMPLES_DIR, `${slug}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StoredExample) : null;
}

const UPLOAD_FUNCTION = `upload() { # a file of samples/ and its type: prints its upload_ref
  local created
  created=$(curl -s -X POST "$BASE/v1/uploads" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
       -d "{\\"content_type\\":\\"$2\\",\\"size_bytes\\":$(wc -c < "$1" | tr -d ' '),\\"filename\\":\\"$(basename "$1")\\"}")
  curl -s -X PUT "$(echo "$created" | jq -r .url)" -H "Content-Type: $2" --data-binary @"$1" > /dev/null
  echo "$created" | jq -r .upload_ref
}`;

/** The call in curl, as the endpoint page shows it (test/integration/docs/snippets.test.ts runs every page's). */
export function curlExample(example: EndpointExample): string {
  const endpoint = CATALOGUE[example.slug];
  const path = `$BASE/v1/${example.slug}${endpoint.acceptsWait ? '?wait=true' : ''}`;
  const auth = '-H "Authorization: Bearer $KEY"';
  if (example.encoding === 'multipart') {
    const fields = Object.entries(example.fields).map(([name, value]) => ` -F ${name}=${String(value)}`);
    return `curl -s -X POST "${path}" ${auth} -F ${endpoint.fileField}=@samples/${example.samples[0]}${fields.join('')}`;
  }
  const lines: string[] = [];
  let body = example.fields;
  if (example.samples.length) {
    lines.push(UPLOAD_FUNCTION);
    const uploads = example.samples.map((sample) => `$(upload samples/${sample} ${contentTypeOf(sample)})`);
    if (example.samples.length === 1) {
      lines.push(`REF=${uploads[0]}`);
      body = { input_ref: '$REF', ...body };
    } else {
      // each upload_ref quoted, for the JSON array below
      lines.push(`REFS=${uploads.map((upload) => `\\"${upload}\\"`).join(',')}`);
      body = { input_refs: ['$REFS'], ...body };
    }
  }
  const json = JSON.stringify(body).replace('["$REFS"]', '[$REFS]').replaceAll('"', '\\"');
  const call = `curl -s -X POST "${path}" ${auth} -H 'Content-Type: application/json' -d "${json}"`;
  if (endpoint.acceptsWait) return [...lines, call].join('\n');
  // no wait=true on an endpoint that takes minutes: poll the job until it settles
  return [
    ...lines,
    `JOB=$(${call} | jq -r .id)`,
    // a job may be polled once a second
    `while JOB_NOW=$(curl -s "$BASE/v1/jobs/$JOB" ${auth}); ! echo "$JOB_NOW" | jq -e '.status | IN("succeeded", "failed", "canceled")' > /dev/null; do sleep 1; done`,
    'echo "$JOB_NOW"',
  ].join('\n');
}

/** The call with the TypeScript client (`run` waits or polls, whichever the endpoint takes). */
export function clientExample(example: EndpointExample): string {
  const endpoint = CATALOGUE[example.slug];
  const lines = [
    ...(example.samples.length ? ["import { readFileSync } from 'node:fs';"] : []),
    "import { createAisClient } from '@automotive-inference/client';",
    '',
    'const client = createAisClient({ baseUrl: process.env.BASE!, apiKey: process.env.KEY! });',
  ];
  const fields = Object.keys(example.fields).length ? JSON.stringify(example.fields) : '';
  if (example.encoding === 'multipart') {
    const [sample] = example.samples;
    lines.push(
      `const file = new Blob([readFileSync('samples/${sample}')], { type: '${contentTypeOf(sample!)}' });`,
      `const job = await client.run('${example.slug}', { files: { ${endpoint.fileField}: ${endpoint.fileField === 'images' ? '[file]' : 'file'} }${fields ? `, fields: ${fields}` : ''} });`,
    );
  } else if (example.samples.length) {
    lines.push(
      `const samples = ${JSON.stringify(example.samples)};`,
      'const refs: string[] = [];',
      'for (const sample of samples) {',
      "  const type = sample.endsWith('.mp4') ? 'video/mp4' : 'image/jpeg';",
      "  refs.push(await client.upload(new Blob([readFileSync('samples/' + sample)]), type));",
      '}',
      example.samples.length === 1
        ? `const job = await client.run('${example.slug}', { json: { input_ref: refs[0]! } });`
        : `const job = await client.run('${example.slug}', { json: { input_refs: refs } });`,
    );
  } else {
    lines.push(`const job = await client.run('${example.slug}', { json: ${fields} });`);
  }
  lines.push('console.log(job.status, JSON.stringify(job.result, null, 2));');
  return lines.join('\n');
}
