import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CATALOGUE, ENDPOINT_SLUGS, type Scenario } from '../lambdas/domain/catalogue/catalogue.js';
import { ERROR_CODES, ERROR_TYPES, type ErrorCode } from '../lambdas/domain/kernel/errors.js';

export const DOCS_DIR = resolve(import.meta.dirname, '..', 'docs');

/** One page under /docs/guides: a Markdown file of docs/, or a page generated from a table of the code. */
export interface Guide {
  slug: string;
  /** its menu label */
  title: string;
  section: string;
  /** the docs/ file it renders, or null for a generated page */
  file: string | null;
  markdown: string;
}

/**
 * The menu: which section each page sits in, in order, with a shorter label where the page's own
 * heading is long. Every Markdown file of docs/ is on the site whether or not it is named here:
 * one that is not lands in "More", under its own heading. The site speaks to the API's customers:
 * how the service is built and run is in docs/internals/, which the site leaves out.
 */
const MENU: ReadonlyArray<{ section: string; pages: ReadonlyArray<readonly [slug: string, label?: string]> }> = [
  {
    section: 'Start here',
    pages: [
      ['quickstart'],
      ['authentication', 'Authentication and API keys'],
      ['test-mode', 'Test mode and scenarios'],
      ['test-fixtures', 'Test fixtures'],
    ],
  },
  {
    section: 'Concepts',
    pages: [
      ['jobs-and-credits', 'Jobs and polling'],
      ['wait', 'Waiting for a result'],
      ['uploads', 'Uploads'],
      ['webhooks'],
      ['errors', 'Errors'],
      ['idempotency-and-rate-limits', 'Idempotency and rate limits'],
      ['quotes', 'Quotes'],
      ['deadlines', 'Deadlines'],
      ['spend-limits', 'Spend limits'],
      ['batches', 'Batches'],
      ['inspections', 'Inspections'],
      ['data-retention', 'Redaction and retention'],
    ],
  },
  {
    section: 'Endpoints',
    pages: [['results', 'Parameters and results']],
  },
  {
    section: 'Tools',
    pages: [['client', 'TypeScript client'], ['dashboard'], ['management', 'Management API']],
  },
];
const UNLISTED_SECTION = 'More';

/** The page's own heading, without Markdown code marks. */
function headingOf(markdown: string, fallback: string): string {
  return (/^# (.+)$/m.exec(markdown)?.[1] ?? fallback).replace(/`/g, '').trim();
}

/** A link from one guide's Markdown to another's file (`uploads.md#…`, right in the repository) points at that guide's page on the site. */
function linkGuidesOnSite(markdown: string, slugs: ReadonlySet<string>): string {
  return markdown.replace(/\]\(([\w-]+)\.md(#[^)\s]*)?\)/g, (link, slug: string, anchor: string | undefined) =>
    slugs.has(slug) ? `](/docs/guides/${slug}${anchor ?? ''})` : link,
  );
}

/** Every guide of the site, in menu order: each docs/*.md file, plus the pages generated from the catalogue and the error table. */
export function guides(docsDir = DOCS_DIR): Guide[] {
  const files = readdirSync(docsDir)
    .filter((name) => name.endsWith('.md'))
    .sort();
  const generated: Record<string, string> = { 'test-mode': testModeGuide(), errors: errorsGuide() };
  const slugs = new Set([...files.map((name) => name.slice(0, -3)), ...Object.keys(generated)]);
  const sources = new Map<string, { file: string | null; markdown: string }>();
  for (const name of files)
    sources.set(name.slice(0, -3), {
      file: name,
      markdown: linkGuidesOnSite(readFileSync(join(docsDir, name), 'utf8'), slugs),
    });
  for (const [slug, markdown] of Object.entries(generated)) sources.set(slug, { file: null, markdown });

  const placed: Guide[] = [];
  const page = (slug: string, section: string, label?: string) => {
    const source = sources.get(slug);
    if (!source) return;
    sources.delete(slug);
    placed.push({ slug, section, title: label ?? headingOf(source.markdown, slug), ...source });
  };
  for (const { section, pages } of MENU) for (const [slug, label] of pages) page(slug, section, label);
  for (const slug of [...sources.keys()]) page(slug, UNLISTED_SECTION);
  return placed;
}

const SCENARIO_EFFECTS: Record<Scenario, string> = {
  empty_result: 'succeeds with the natural empty answer (no plates, no damage, …), billed as usual',
  low_confidence: 'succeeds with every confidence below 0.5 and `needs_review: true`',
  model_error: 'fails: `{type: processing_error, code: model_inference_failed}`, nothing charged',
  slow: 'waits before dispatch and while processing, then succeeds (try `wait=true` against it)',
  insufficient_credits: 'refused at admission: `402 insufficient_credits`, nothing created',
  unreadable_input: 'fails: `{type: invalid_request, code: unreadable_input}`, nothing charged',
  upstream_timeout: 'fails: `{type: processing_error, code: upstream_timeout}`, nothing charged',
  expire:
    'stays `queued` and expires within 5 s: `{type: processing_error, code: job_expired}`, reservation released, `job.failed` sent',
  wait_timeout:
    'stays `queued` until 5 s after the `wait=true` ceiling, then succeeds: `wait=true` answers `202` with the job unsettled',
  fail_at_onboard_walkaround: 'fails the inspection at that stage; later stages are canceled',
  fail_at_isolate_vehicle: 'fails the inspection at that stage; later stages are canceled',
  fail_at_decompose_parts: 'fails the inspection at that stage; later stages are canceled',
  fail_at_detect_damage: 'fails the inspection at that stage; later stages are canceled',
  fail_at_grade_severity: 'fails the inspection at that stage; later stages are canceled',
  fail_at_price_repair: 'fails the inspection at that stage; later stages are canceled',
  fail_at_render_listing: 'fails the inspection at that stage; later stages are canceled',
  fail_at_anchor_hotspots: 'fails the inspection at that stage; later stages are canceled',
};

/** The test-mode page, generated from the catalogue so that it can never disagree with it. */
export function testModeGuide(): string {
  const rows = ENDPOINT_SLUGS.map(
    (slug) => `| \`${slug}\` | ${CATALOGUE[slug].scenarios.map((scenario) => `\`${scenario}\``).join(', ')} |`,
  );
  const used = [...new Set(ENDPOINT_SLUGS.flatMap((slug) => CATALOGUE[slug].scenarios))];
  return [
    '# Test mode and scenarios',
    '',
    'Test keys (`chk_test_…`) run the whole pipeline (admission, credits on the test balance, the queue, settlement, webhooks) against a deterministic test-mode backend: the same input bytes and parameters always give the same result, and the sample files answer what they show ([Test fixtures](/docs/guides/test-fixtures)). Without a header a call succeeds. The `X-Svc-Test-Scenario` header steers it; a scenario the endpoint does not support answers `400 test_scenario_not_supported`. Live keys ignore the header.',
    '',
    '```sh',
    `curl -s -X POST "$BASE/v1/plate.read?wait=true" -H "Authorization: Bearer $KEY" -H 'X-Svc-Test-Scenario: model_error' -F image=@samples/car.jpg | jq '{status, error}'`,
    '```',
    '',
    'With the TypeScript client, `scenario` sends the header:',
    '',
    '```ts',
    "import { readFileSync } from 'node:fs';",
    "import { createAisClient } from '@automotive-inference/client';",
    '',
    'const client = createAisClient({ baseUrl: process.env.BASE!, apiKey: process.env.KEY! });',
    "const image = new Blob([readFileSync('samples/car.jpg')], { type: 'image/jpeg' });",
    "const job = await client.run('plate.read', { files: { image }, scenario: 'low_confidence' });",
    'console.log(job.status, job.result?.needs_review, job.result?.plates[0]?.confidence);',
    '```',
    '',
    '| scenario | effect |',
    '|---|---|',
    ...used.map((scenario) => `| \`${scenario}\` | ${SCENARIO_EFFECTS[scenario]} |`),
    '',
    '## Scenarios per endpoint',
    '',
    '| endpoint | scenarios |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** Every error code by type, generated from the one error table; each links to its own page (the `doc_url` of an error). */
export function errorsGuide(): string {
  const codes = Object.keys(ERROR_CODES) as ErrorCode[];
  const sections = ERROR_TYPES.filter((type) => codes.some((code) => ERROR_CODES[code].type === type)).flatMap(
    (type) => [
      `## \`${type}\``,
      '',
      '| code | status | meaning |',
      '|---|---|---|',
      ...codes
        .filter((code) => ERROR_CODES[code].type === type)
        .map(
          (code) =>
            `| [\`${code}\`](/docs/errors/${code}) | ${ERROR_CODES[code].status} | ${ERROR_CODES[code].message} |`,
        ),
      '',
    ],
  );
  return [
    '# Errors',
    '',
    'Every error answers with the same envelope: `{"error": {"type", "code", "message", "param", "doc_url", "request_id"}}`. Branch on `type`, which is one of the few below; `code` says exactly what happened, and a code your program does not know yet is handled as its type. `param` names the offending parameter, header or file field, when there is one. `request_id` is also in the `Request-Id` header: quote it when you write to us. A job that fails carries the same `type`, `code` and `message` in its `error`.',
    '',
    '```sh',
    `curl -s -w '\\nHTTP %{http_code}\\n' -X POST $BASE/v1/plate.read -H "Authorization: Bearer $KEY" -F image=@samples/car.jpg -F min_confidence=2`,
    '```',
    '',
    '```json',
    '{ "type": "invalid_request", "code": "parameter_invalid", "message": "…", "param": "min_confidence",',
    '  "doc_url": "…/docs/errors/parameter_invalid", "request_id": "req_…" }',
    '```',
    '',
    'The TypeScript client throws every error answer as an `AisError`; `kind(known)` gives the code when your program knows it, its `type` otherwise:',
    '',
    '```ts',
    "import { readFileSync } from 'node:fs';",
    "import { AisError, createAisClient } from '@automotive-inference/client';",
    '',
    'const client = createAisClient({ baseUrl: process.env.BASE!, apiKey: process.env.KEY! });',
    "const image = new Blob([readFileSync('samples/car.jpg')], { type: 'image/jpeg' });",
    'try {',
    "  await client.run('plate.read', { files: { image }, fields: { min_confidence: 2 } });",
    '} catch (error) {',
    '  if (!(error instanceof AisError)) throw error;',
    "  console.log(error.status, error.kind(['parameter_invalid']), error.param, error.requestId);",
    '}',
    '```',
    '',
    ...sections,
  ].join('\n');
}
