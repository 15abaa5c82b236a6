import {
  CATALOGUE,
  ENDPOINT_SLUGS,
  type EndpointDefinition,
  type EndpointSlug,
} from '../../../domain/catalogue/catalogue.js';
import { quoteCall as quote } from '../../../domain/jobs/quotes.js';
import type { ErrorCode } from '../../../domain/kernel/errors.js';
import { QuoteSchema } from '../../../schemas/quotes.js';
import { implement } from '../../implement.js';
import { parseQuote } from '../../inference/call.js';
import { defineRoute, JSON_BODY_BYTES } from '../define.js';
import { endpointErrors, FAMILY_TAGS } from './endpoint-route.js';

/** What a call answers that its quote cannot: a quote carries no bytes, no scenario and moves no credits. */
const NOT_QUOTED: readonly ErrorCode[] = [
  'insufficient_credits',
  'spend_limit_exceeded',
  'test_scenario_not_supported',
  'invalid_multipart',
  'file_too_large',
  'json_encoding_required',
];

function quoteErrors(endpoint: EndpointDefinition): ErrorCode[] {
  return endpointErrors(endpoint).filter((code) => !NOT_QUOTED.includes(code));
}

function quoteRoute(slug: EndpointSlug) {
  const endpoint = CATALOGUE[slug];
  return defineRoute({
    module: import.meta.url,
    id: `quote-${slug.replace('.', '-')}`,
    method: 'POST',
    path: `/v1/${slug}/quote`,
    summary: `${endpoint.name}: quote a call (what it would reserve and charge, nothing written)`,
    tag: FAMILY_TAGS[endpoint.family]!,
    auth: 'api_key',
    // a quote writes nothing, so there is nothing to replay (docs/internals/quotes.md)
    middleware: ['quote-rate-limit'],
    quoteOf: slug,
    responses: { 200: { description: 'the quote', schema: QuoteSchema } },
    errors: quoteErrors(endpoint),
    // reads the upload records and HEADs their objects, and the balance; writes only its rate-limit window
    access: { table: 'readwrite', readObjects: ['uploads'] },
    timeoutSeconds: 10,
    maxBodyBytes: JSON_BODY_BYTES,
  });
}

/** `POST /v1/{slug}/quote` for every endpoint of the catalogue. */
export const routes: readonly ReturnType<typeof quoteRoute>[] = ENDPOINT_SLUGS.map(quoteRoute);

/** `POST /v1/{slug}/quote` for every slug: parse the call's JSON body, quote it (domain/jobs/quotes.ts). */
export const handler = implement(routes, async ({ route, services, principal, request }) => {
  const endpoint = CATALOGUE[route.quoteOf];
  return { status: 200, body: await quote(services, principal, endpoint, await parseQuote(request, endpoint)) };
});
