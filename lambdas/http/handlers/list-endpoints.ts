import { lambdaEntry } from '../lambda-entry.js';
import { ENDPOINT_SLUGS, CATALOGUE } from '../../domain/catalogue/catalogue.js';
import { queueTimeoutSeconds } from '../../domain/jobs/admission.js';
import type { Services } from '../../domain/ports/services.js';
import { apiRoute } from '../api-route.js';
import type { HttpHandler } from '../handler.js';
import { json } from '../response.js';

/** `GET /v1/endpoints`: the catalogue, straight from the one endpoint table. */
export function listEndpointsHandler(services: Services): HttpHandler {
  return apiRoute(services, async () => {
    const data = ENDPOINT_SLUGS.map((slug) => {
      const e = CATALOGUE[slug];
      return {
        slug: e.slug,
        family: e.family,
        name: e.name,
        availability: e.availability,
        metering: e.metering,
        price: e.price,
        currency: 'usd',
        input_kind: e.inputKind,
        accepts_wait: e.acceptsWait,
        queue_timeout_seconds: queueTimeoutSeconds(services, e),
        scenarios: [...e.scenarios],
      };
    });
    return json(200, { object: 'list', data, has_more: false });
  });
}

export const handler = lambdaEntry((container) => listEndpointsHandler(container));
