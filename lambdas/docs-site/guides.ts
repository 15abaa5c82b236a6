import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE, ENDPOINT_SLUGS, type Scenario } from '../domain/catalogue/catalogue.js';

/** Every guide of the documentation site, in menu order: the Markdown under docs/, plus one page generated from the catalogue. */
export const GUIDES = [
  { slug: 'quickstart', title: 'Quickstart', file: 'quickstart.md' },
  { slug: 'test-mode', title: 'Test mode and scenarios', file: null },
  { slug: 'jobs-and-credits', title: 'Jobs and credits', file: 'jobs-and-credits.md' },
  { slug: 'idempotency-and-rate-limits', title: 'Idempotency and rate limits', file: 'idempotency-and-rate-limits.md' },
  { slug: 'webhooks', title: 'Webhooks', file: 'webhooks.md' },
  { slug: 'uploads', title: 'Uploads', file: 'uploads.md' },
  { slug: 'inspections', title: 'Inspections', file: 'inspections.md' },
  { slug: 'results', title: 'Endpoints and results', file: 'results.md' },
  { slug: 'management', title: 'Management API', file: 'management.md' },
  { slug: 'deploy', title: 'Deploying (cdk deploy, LocalStack with cdklocal)', file: 'deploy.md' },
  { slug: 'operations', title: 'Operations', file: 'operations.md' },
] as const;

const SCENARIO_EFFECTS: Record<Scenario, string> = {
  empty_result: 'succeeds with the natural empty answer (no plates, no damage, …), billed as usual',
  low_confidence: 'succeeds with every confidence below 0.5 and `needs_review: true`',
  model_error: 'fails: `{type: processing_error, code: model_inference_failed}`, nothing charged',
  slow: 'waits before dispatch and while processing, then succeeds (try `wait=true` against it)',
  insufficient_credits: 'refused at admission: `402 insufficient_credits`, nothing created',
  unreadable_input: 'fails: `{type: invalid_request, code: unreadable_input}`, nothing charged',
  upstream_timeout: 'fails: `{type: processing_error, code: upstream_timeout}`, nothing charged',
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
  const rows = ENDPOINT_SLUGS.map((slug) => `| \`${slug}\` | ${CATALOGUE[slug].scenarios.map((scenario) => `\`${scenario}\``).join(', ')} |`);
  const used = [...new Set(ENDPOINT_SLUGS.flatMap((slug) => CATALOGUE[slug].scenarios))];
  return [
    '# Test mode and scenarios',
    '',
    'Test keys (`chk_test_…`) run the whole pipeline (admission, credits on the test balance, the queue, settlement, webhooks) against a deterministic fixture backend: the same input bytes and parameters always give the same result. Without a header a call succeeds. The `X-Svc-Test-Scenario` header steers it; a scenario the endpoint does not support answers `400 test_scenario_not_supported`. Live keys ignore the header.',
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

export function guideMarkdown(docsDir: string, guide: (typeof GUIDES)[number]): string {
  return guide.file === null ? testModeGuide() : linkGuidesOnSite(readFileSync(join(docsDir, guide.file), 'utf8'));
}

/** A link from one guide's Markdown to another's file (`uploads.md#…`, right on GitHub) points at that guide's page on the site. */
function linkGuidesOnSite(markdown: string): string {
  return markdown.replace(/\]\(([\w-]+\.md)(#[^)\s]*)?\)/g, (link, file: string, anchor: string | undefined) => {
    const target = GUIDES.find((candidate) => candidate.file === file);
    return target ? `](/docs/guides/${target.slug}${anchor ?? ''})` : link;
  });
}
