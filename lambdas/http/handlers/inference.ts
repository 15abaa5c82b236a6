import { requireFamily } from '../../domain/access/api-keys.js';
import { CATALOGUE } from '../../domain/catalogue/catalogue.js';
import { admitJob, newJobId, refuseSteeredAdmission } from '../../domain/jobs/admission.js';
import { storeIncomingFiles } from '../../domain/jobs/inputs.js';
import { isTerminal } from '../../domain/jobs/job.js';
import { presentJob } from '../../domain/jobs/job-view.js';
import { resolveUploads } from '../../domain/jobs/uploads.js';
import { waitForSettlement } from '../../domain/jobs/waiting.js';
import { epochSeconds } from '../../domain/kernel/clock.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { loadInferenceParamsSchema } from '../../schemas/inference-params.js';
import { idempotencyCompletion } from '../idempotency.js';
import { implement } from '../implement.js';
import { parseInferenceBody, requireInputs } from '../inference/body.js';
import { admitInspection } from '../inference/inspection.js';
import { parseWait } from '../inference/query.js';
import { parseScenario } from '../inference/scenario.js';
import { multipartFingerprint } from '../multipart.js';
import { json } from '../response.js';
import { validateParams } from '../validation.js';
import type { Services } from '../../domain/ports/services.js';
import * as inference from '../routes/inference.js';

// The inference routes: one handler admits a job for every endpoint of the catalogue.

/** When a `wait=true` call will have answered at the latest (epoch seconds). */
function waitEndsBy(services: Services): number {
  return epochSeconds(services.clock) + Math.ceil(services.config.waitCeilingMs / 1000) + 1;
}

/** `POST /v1/{slug}` for every slug: validate everything, then admit the job in one transaction. */
export const createJob = implement(
  inference.INFERENCE_ROUTES,
  async ({ route, services, principal, request }) => {
    const endpoint = CATALOGUE[route.slug];
    requireFamily(principal, endpoint.family);
    const wait = parseWait(request, endpoint);
    const scenario = parseScenario(request, principal, endpoint);
    if (endpoint.availability !== 'available') throw new ApiError('endpoint_not_available', null, `${endpoint.slug} is planned and not available yet.`);
    // the eight-stage bundle has its own body (input_refs + stages.exclude) and price
    if (endpoint.slug === 'inspections') {
      const admitted = await admitInspection(services, request, principal, scenario);
      return { status: 202, body: admitted.body };
    }
    const body = await parseInferenceBody(request, endpoint, services.config.maxFileBytes);
    requireInputs(endpoint, body);
    const params = validateParams(await loadInferenceParamsSchema(endpoint.slug), body.params);

    refuseSteeredAdmission(scenario);
    const uploads = await resolveUploads(services, principal, endpoint, body.inputRefs, body.inputRefsParam);
    const jobId = newJobId(services);
    // test mode keeps multipart bytes only where the sandbox model may hand an input back unchanged
    const keepBytes = principal.livemode || endpoint.sandboxReturnsInputs;
    const inputs = body.files.length ? await storeIncomingFiles(services, principal.orgId, jobId, body.files, keepBytes) : uploads.inputs;
    const admitted = await admitJob(services, {
      requestId: request.requestId,
      ...(request.admission ? { checks: request.admission } : {}),
      principal,
      endpoint,
      jobId,
      params,
      inputs,
      scenario,
      inputRefsParam: body.inputRefsParam,
      extraOps: async (job) => [
        ...uploads.consumeOps(job.id),
        ...idempotencyCompletion(request, json(202, await presentJob(services, job)), wait ? waitEndsBy(services) : undefined),
      ],
    });
    if (wait) {
      const latest = (await waitForSettlement(services, admitted.id, services.config.waitCeilingMs)) ?? admitted;
      return { status: isTerminal(latest.status) ? 200 : 202, body: await presentJob(services, latest) };
    }
    return { status: 202, body: await presentJob(services, admitted) };
  },
  { multipartFingerprint },
);
