import { lambdaEntry } from '../lambda-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { presentJobPage } from '../../domain/jobs/job-view.js';
import { JobListQuerySchema } from '../../schemas/records.js';
import { apiRoute } from '../api-route.js';
import type { HttpHandler } from '../handler.js';
import { singleValuedQuery } from '../query.js';
import { json } from '../response.js';
import { validateParams } from '../validation.js';

/** `GET /v1/jobs`: newest first, scoped to the key's organisation and mode. */
export function listJobsHandler(services: Services): HttpHandler {
  return apiRoute(services, async (request, principal) => {
    const query = validateParams(JobListQuerySchema, singleValuedQuery(request));
    const page = await presentJobPage(services, {
      orgId: principal.orgId,
      livemode: principal.livemode,
      limit: query.limit,
      ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.endpoint ? { endpoint: query.endpoint } : {}),
    });
    return json(200, page);
  });
}

export const handler = lambdaEntry((container) => listJobsHandler(container));
