import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE, type EndpointSlug } from '../lambdas/domain/catalogue/catalogue.js';
import { imageSize } from '../lambdas/domain/jobs/image-size.js';
import { escapeHtml } from '../lambdas/http/html.js';
import {
  clientExample,
  curlExample,
  ENDPOINT_EXAMPLES,
  type EndpointExample,
  endpointPagePath,
  SAMPLES_DIR,
  storedExample,
} from './endpoint-examples.js';

/** The index of the endpoint pages, in the menu's "Endpoints" section. */
export const ENDPOINTS_INDEX = '/docs/reference/endpoints';

const METERING_WORDS = {
  per_image: 'per image',
  per_request: 'per call',
  per_second: 'per second of audio or video',
  per_inspection: 'per inspection',
} as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  label: string;
}

function isBox(value: unknown): value is Omit<Box, 'label'> {
  const box = value as Record<string, unknown> | null;
  return !!box && typeof box === 'object' && ['x', 'y', 'width', 'height'].every((key) => typeof box[key] === 'number');
}

/** Every `bbox` of a result, labelled with what it boxes (a plate's text, a damage's type, a part…). */
function boxesOf(value: unknown, found: Box[] = []): Box[] {
  if (Array.isArray(value)) for (const item of value) boxesOf(item, found);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (isBox(record.bbox)) {
      const label = ['text', 'type', 'part', 'name', 'label', 'viewpoint', 'id']
        .map((key) => record[key])
        .find((v) => typeof v === 'string');
      found.push({ ...record.bbox, label: String(label ?? '') });
    }
    for (const [key, item] of Object.entries(record)) if (key !== 'bbox') boxesOf(item, found);
  }
  return found;
}

/** The sample with the result's boxes drawn on it, as SVG over the picture (no script). */
function drawing(example: EndpointExample, result: unknown): string {
  const [sample] = example.samples;
  if (example.samples.length !== 1 || !sample?.endsWith('.jpg')) return '';
  const boxes = boxesOf(result);
  const size = imageSize(readFileSync(join(SAMPLES_DIR, sample)));
  if (!boxes.length || !size) return '';
  const { width, height } = size;
  const stroke = Math.max(2, Math.round(width / 250));
  const font = Math.max(12, Math.round(width / 45));
  const shapes = boxes
    .map((box) => {
      const [x, y, w, h] = [box.x * width, box.y * height, box.width * width, box.height * height].map((n) =>
        Math.round(n),
      ) as [number, number, number, number];
      const labelY = y > font + 4 ? y - 4 : y + h + font;
      return `<rect x="${x}" y="${y}" width="${w}" height="${h}"/><text x="${x}" y="${labelY}">${escapeHtml(box.label)}</text>`;
    })
    .join('');
  const described = boxes.map((box) => box.label).filter(Boolean);
  return `<h2 id="drawn">What it found, drawn</h2>
<figure class="drawn"><svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="drawn-caption"><image href="/docs/assets/samples/${escapeHtml(sample)}" width="${width}" height="${height}"/><g class="boxes" stroke-width="${stroke}" font-size="${font}">${shapes}</g></svg>
<figcaption id="drawn-caption"><code>samples/${escapeHtml(sample)}</code> (${width}×${height}) with the ${boxes.length} box${boxes.length === 1 ? '' : 'es'} of the answer${described.length ? `: ${escapeHtml(described.join(', '))}` : ''}.</figcaption></figure>`;
}

function code(language: string, text: string): string {
  return `<pre tabindex="0"><code class="language-${language}">${escapeHtml(text)}</code></pre>`;
}

/** One endpoint's page: a real call (curl and the client), the fixture backend's real answer on the sample, and its boxes drawn. */
export function endpointPage(example: EndpointExample, serverUrl: string): string {
  const endpoint = CATALOGUE[example.slug];
  const stored = storedExample(example.slug);
  const operation = `/docs/reference#operation/infer-${example.slug.replace('.', '-')}`;
  const base = serverUrl.replace(/\/$/, '');
  const inputs = example.samples.length
    ? `the repository's sample${example.samples.length > 1 ? 's' : ''} ${[...new Set(example.samples)].map((sample) => `<code>samples/${escapeHtml(sample)}</code>`).join(' and ')}`
    : 'its parameters alone';
  const answer = stored
    ? `<h2 id="answer">The answer</h2><p>HTTP ${stored.status}, as the fixture backend answered this call with a test key (ids, times and file URLs made stable; <a href="/docs/guides/test-fixtures">Test fixtures</a> says what each sample answers).</p>${code('json', JSON.stringify(stored.job, null, 2))}`
    : '';
  return `<h1>${escapeHtml(endpoint.name)} <code>${escapeHtml(example.slug)}</code></h1>
<p>${endpoint.price} credits ${METERING_WORDS[endpoint.metering]}; ${endpoint.acceptsWait ? 'takes <code>wait=true</code>' : 'takes minutes, so the job is polled (no <code>wait=true</code>)'}. Every parameter and answer: <a href="${operation}">POST /v1/${escapeHtml(example.slug)}</a> in the API reference; the result's fields: <a href="/docs/guides/results">Parameters and results</a>.</p>
<h2 id="request">The call</h2><p>On ${inputs}, from the repository's root, with <code>BASE=${escapeHtml(base)}</code> and a test key in <code>KEY</code> (<a href="/docs/guides/quickstart">Quickstart</a>):</p>
${code('sh', curlExample(example))}
<p>With the TypeScript client:</p>
${code('ts', clientExample(example))}
${stored ? drawing(example, stored.job.result) : ''}
${answer}`;
}

/** Every endpoint page by path, and their index. */
export function endpointPages(serverUrl: string): Map<string, { title: string; html: string }> {
  const pages = new Map<string, { title: string; html: string }>();
  for (const example of ENDPOINT_EXAMPLES)
    pages.set(endpointPagePath(example.slug), {
      title: CATALOGUE[example.slug].name,
      html: endpointPage(example, serverUrl),
    });
  const rows = ENDPOINT_EXAMPLES.map(
    ({ slug, samples }) =>
      `<tr><td><a href="${endpointPagePath(slug)}"><code>${escapeHtml(slug)}</code></a></td><td>${escapeHtml(CATALOGUE[slug].name)}</td><td>${samples.length ? [...new Set(samples)].map((sample) => `<code>${escapeHtml(sample)}</code>`).join(', ') : 'parameters only'}</td></tr>`,
  ).join('');
  pages.set(ENDPOINTS_INDEX, {
    title: 'Examples by endpoint',
    html: `<h1>Examples by endpoint</h1><p>Each endpoint with a call you can copy (curl and the TypeScript client), run on the repository's sample that shows what it reads, and the answer the fixture backend gives it with a test key, boxes drawn on the picture.</p><table tabindex="0"><thead><tr><th scope="col">endpoint</th><th scope="col">what it does</th><th scope="col">sample</th></tr></thead><tbody>${rows}</tbody></table>`,
  });
  return pages;
}

/** The endpoint page an operation of the reference links to, if it has one. */
export function endpointPageOf(operationId: string): { href: string; label: string } | undefined {
  const example = ENDPOINT_EXAMPLES.find(({ slug }) => operationId === `infer-${slug.replace('.', '-')}`);
  return example
    ? { href: endpointPagePath(example.slug as EndpointSlug), label: 'A real call and its answer on a sample' }
    : undefined;
}
