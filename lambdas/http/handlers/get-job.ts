import { lambdaEntry } from '../lambda-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { findVisibleJob } from '../../domain/jobs/job-access.js';
import { checkPollingRate } from '../../domain/access/rate-limits.js';
import { presentJob } from '../../domain/jobs/job-view.js';
import { apiRoute } from '../api-route.js';
import type { HttpHandler } from '../handler.js';
import { json } from '../response.js';

/** `GET /v1/jobs/{id}` */
export function getJobHandler(services: Services): HttpHandler {
  return apiRoute(services, async (request, principal) => {
    const job = await findVisibleJob(services, principal, request.pathParameters.id ?? '');
    await checkPollingRate(services, services.rateLimitCounter, job.id);
    return json(200, await presentJob(services, job));
  });
}

export const handler = lambdaEntry((container) => getJobHandler(container));
