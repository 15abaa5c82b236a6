import { CATALOGUE, ENDPOINT_SLUGS } from '../../domain/catalogue/catalogue.js';
import { queueTimeoutSeconds } from '../../domain/jobs/admission.js';
import { priceDisplay } from '../../domain/money/credit-value.js';
import { implement } from '../implement.js';
import { listEndpoints } from '../routes/jobs.js';

/** `GET /v1/endpoints`: the catalogue, straight from the one endpoint table. */
export const handler = implement(listEndpoints, async ({ services }) => {
  const data = ENDPOINT_SLUGS.map((slug) => {
    const e = CATALOGUE[slug];
    return {
      slug: e.slug,
      family: e.family,
      name: e.name,
      availability: e.availability,
      metering: e.metering,
      price: e.price,
      currency: 'usd' as const,
      price_display: priceDisplay(e.price, e.metering),
      input_kind: e.inputKind,
      accepts_wait: e.acceptsWait,
      queue_timeout_seconds: queueTimeoutSeconds(services, e),
      scenarios: [...e.scenarios],
    };
  });
  return { status: 200, body: { object: 'list' as const, data, has_more: false } };
});
