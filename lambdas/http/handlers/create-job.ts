import { lambdaEntry } from '../lambda-entry.js';
import { admitJob, newJobId, refuseSteeredAdmission } from '../../domain/jobs/admission.js';
import { requireFamily } from '../../domain/access/api-keys.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { CATALOGUE, type EndpointSlug } from '../../domain/catalogue/catalogue.js';
import type { Services } from '../../domain/ports/services.js';
import { storeIncomingFiles } from '../../domain/jobs/inputs.js';
import { resolveUploads } from '../../domain/jobs/uploads.js';
import { presentJob } from '../../domain/jobs/job-view.js';
import { isTerminal } from '../../domain/jobs/job.js';
import { waitForSettlement } from '../../domain/jobs/waiting.js';
import { inferenceParamsSchema } from '../../schemas/inference-params.js';
import { apiRoute } from '../api-route.js';
import type { HttpHandler } from '../handler.js';
import { parseInferenceBody, requireInputs } from '../inference/body.js';
import { parseWait } from '../inference/query.js';
import { parseScenario } from '../inference/scenario.js';
import { json } from '../response.js';
import { idempotencyCompletion } from '../idempotency.js';
import { validateParams } from '../validation.js';
import { admitInspection } from '../inference/inspection.js';

/** `POST /v1/{slug}`: validate everything, then admit the job in one transaction. */
export function createJobHandler(services: Services, slug: EndpointSlug): HttpHandler {
  const endpoint = CATALOGUE[slug];
  const paramsSchema = inferenceParamsSchema(slug);
  return apiRoute(services, async (request, principal) => {
    requireFamily(principal, endpoint.family);
    const wait = parseWait(request, endpoint);
    const scenario = parseScenario(request, principal, endpoint);
    if (endpoint.availability !== 'available') throw new ApiError('endpoint_not_available', null, `${endpoint.slug} is planned and not available yet.`);
    // the eight-stage bundle has its own body (input_refs + stages.exclude) and price
    if (slug === 'inspections') return admitInspection(services, request, principal, scenario);
    const body = await parseInferenceBody(request, endpoint, services.config.maxFileBytes);
    requireInputs(endpoint, body);
    const params = validateParams(paramsSchema, body.params);

    refuseSteeredAdmission(scenario);
    const uploads = await resolveUploads(services, principal, endpoint, body.inputRefs, body.inputRefsParam);
    const jobId = newJobId(services);
    const inputs = body.files.length ? await storeIncomingFiles(services, principal.orgId, jobId, body.files) : uploads.inputs;
    const admitted = await admitJob(services, {
      principal,
      endpoint,
      jobId,
      params,
      inputs,
      scenario,
      inputRefsParam: body.inputRefsParam,
      extraOps: async (job) => [...uploads.consumeOps(job.id), ...idempotencyCompletion(request, json(202, await presentJob(services, job)))],
    });
    if (wait) {
      const latest = (await waitForSettlement(services, admitted.id, services.config.waitCeilingMs)) ?? admitted;
      return json(isTerminal(latest.status) ? 200 : 202, await presentJob(services, latest));
    }
    return json(202, await presentJob(services, admitted));
  }, { bucket: slug });
}

export const handler = lambdaEntry((container) => createJobHandler(container, process.env.ENDPOINT_SLUG as EndpointSlug));
