import type { Principal } from '../../domain/access/principal.js';
import { CATALOGUE, type Scenario } from '../../domain/catalogue/catalogue.js';
import { isInspectionStageName, type InspectionStageName } from '../../domain/catalogue/stage-names.js';
import { admitJob, newJobId, refuseSteeredAdmission } from '../../domain/jobs/admission.js';
import { presentJob } from '../../domain/jobs/job-view.js';
import { ACCEPTED_MEDIA_TYPES, resolveUploads } from '../../domain/jobs/uploads.js';
import { checkInspectionInputs, initialStages } from '../../domain/inspections/plan.js';
import { inspectionPrice } from '../../domain/inspections/pricing.js';
import { ApiError } from '../../domain/kernel/errors.js';
import type { Services } from '../../domain/ports/services.js';
import { inspectionParamsSchema } from '../../schemas/inference-params.js';
import { idempotencyCompletion } from '../idempotency.js';
import type { HttpRequest } from '../request.js';
import { json, type HttpResponse } from '../response.js';
import { validateParams } from '../validation.js';
import { parseInferenceBody } from './body.js';

const INSPECTION_MEDIA = [...ACCEPTED_MEDIA_TYPES.video, ...ACCEPTED_MEDIA_TYPES.images];

/** An unknown stage name is named as `stages.exclude`, not as the array element the schema would point at. */
function checkStageNames(params: Record<string, unknown>): void {
  const exclude = (params.stages as { exclude?: unknown } | undefined)?.exclude;
  if (!Array.isArray(exclude)) return;
  const unknown = exclude.find((name) => !isInspectionStageName(name));
  if (unknown !== undefined)
    throw new ApiError(
      'parameter_invalid',
      'stages.exclude',
      `Unknown stage ${JSON.stringify(unknown)} in stages.exclude; stages are ${initialStages([])
        .map((s) => s.name)
        .join(', ')}.`,
    );
}

/**
 * `POST /v1/inspections`: JSON `{ input_refs, stages?: { exclude } }`. Reserves the blended price
 * and queues the inspection like any job; its work message starts the pipeline.
 */
export async function admitInspection(services: Services, request: HttpRequest, principal: Principal, scenario: Scenario | null): Promise<HttpResponse> {
  const endpoint = CATALOGUE.inspections;
  const body = await parseInferenceBody(request, endpoint, services.config.maxFileBytes);
  checkStageNames(body.params);
  const params = validateParams(inspectionParamsSchema, body.params);
  const exclude: InspectionStageName[] = [...new Set(params.stages?.exclude ?? [])];
  if (exclude.length === initialStages([]).length) throw new ApiError('parameter_invalid', 'stages.exclude', 'At least one stage must run.');
  if (body.inputRefs.length === 0) throw new ApiError('missing_input', 'input_refs', 'No input was supplied: send JSON input_refs with one walk-around video and 1 to 30 photos.');

  refuseSteeredAdmission(scenario);
  const uploads = await resolveUploads(services, principal, endpoint, body.inputRefs, 'input_refs', {
    test: (contentType) => INSPECTION_MEDIA.includes(contentType.split(';')[0]!.trim().toLowerCase()),
    description: `one walk-around video (${ACCEPTED_MEDIA_TYPES.video.join(', ')}) and photos (${ACCEPTED_MEDIA_TYPES.images.join(', ')})`,
  });
  checkInspectionInputs(uploads.inputs, exclude);
  const admitted = await admitJob(services, {
    requestId: request.requestId,
    ...(request.admission ? { checks: request.admission } : {}),
    principal,
    endpoint,
    jobId: newJobId(services),
    params: { stages: { exclude } },
    inputs: uploads.inputs,
    scenario,
    inputRefsParam: 'input_refs',
    reserved: inspectionPrice(exclude),
    fields: { stages: initialStages(exclude), stages_started: 0, stages_recorded: 0, execution_attempt: 0 },
    extraOps: async (job) => [...uploads.consumeOps(job.id), ...idempotencyCompletion(request, json(202, await presentJob(services, job)))],
  });
  return json(202, await presentJob(services, admitted));
}
