import { lambdaEntry } from '../lambda-entry.js';
import { authenticateApiKey } from '../../domain/api-keys.js';
import type { Services } from '../../domain/deps.js';
import { findVisibleJob } from '../../domain/job-access.js';
import { presentJob } from '../../domain/job-view.js';
import { httpHandler, type HttpHandler } from '../handler.js';
import { bearerToken } from '../request.js';
import { json } from '../response.js';

/** `GET /v1/jobs/{id}` */
export function getJobHandler(services: Services): HttpHandler {
  return httpHandler(services, async (request) => {
    const principal = await authenticateApiKey(services, bearerToken(request));
    const job = await findVisibleJob(services, principal, request.pathParameters.id ?? '');
    return json(200, await presentJob(services, job));
  });
}

export const handler = lambdaEntry((container) => getJobHandler(container));
