import { lambdaEntry } from '../lambda-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { findVisibleJob } from '../../domain/jobs/job-access.js';
import { presentJob } from '../../domain/jobs/job-view.js';
import { cancelJob } from '../../domain/jobs/processing.js';
import { apiRoute } from '../api-route.js';
import type { HttpHandler } from '../handler.js';
import { json } from '../response.js';

/** `POST /v1/jobs/{id}/cancel`: only a queued job can be canceled; canceling twice is fine. */
export function cancelJobHandler(services: Services): HttpHandler {
  return apiRoute(services, async (request, principal) => {
    const job = await findVisibleJob(services, principal, request.pathParameters.id ?? '');
    const outcome = await cancelJob(services, job);
    if (outcome === 'not_cancelable') throw new ApiError('job_not_cancelable', 'id', `Job ${job.id} is ${job.status}; only a queued job can be canceled.`);
    return json(200, await presentJob(services, outcome));
  });
}

export const handler = lambdaEntry((container) => cancelJobHandler(container));
