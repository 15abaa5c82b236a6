import { CATALOGUE, ENDPOINT_SLUGS, encodingsOf } from '../../../domain/catalogue/catalogue.js';
import { availabilityOf } from '../../../domain/catalogue/plane-declaration.js';
import { queueTimeoutSeconds } from '../../../domain/jobs/admission.js';
import { listOf } from '../../../domain/kernel/page.js';
import { priceDisplay } from '../../../domain/money/credit-value.js';
import { CatalogueSchema } from '../../../schemas/records.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'list-endpoints',
  method: 'GET',
  path: '/v1/endpoints',
  summary: 'The endpoint catalogue: availability, metering, prices, wait support',
  tag: 'Jobs',
  auth: 'api_key',
  middleware: ['read-rate-limit', 'idempotency', 'strict-input'],
  responses: { 200: { description: 'every planned or available endpoint', schema: CatalogueSchema } },
  errors: [],
  // authenticate only; the catalogue is code
  access: { table: 'count' },
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/** `GET /v1/endpoints`: the catalogue, straight from the one endpoint table. */
export const handler = implement(route, async ({ services, principal }) => {
  const data = ENDPOINT_SLUGS.map((slug) => {
    const e = CATALOGUE[slug];
    return {
      slug: e.slug,
      family: e.family,
      name: e.name,
      // the caller's mode's truth: a live key sees only what the stack's plane computes (docs/internals/inference-plane.md)
      availability: availabilityOf(e, principal.livemode, services.config.planeEndpoints),
      metering: e.metering,
      price: e.price,
      currency: 'usd' as const,
      price_display: priceDisplay(e.price, e.metering),
      input_kind: e.inputKind,
      accepts_wait: e.acceptsWait,
      queue_timeout_seconds: queueTimeoutSeconds(services, e),
      scenarios: [...e.scenarios],
      encodings: encodingsOf(e),
    };
  });
  return { status: 200, body: listOf(data) };
});
