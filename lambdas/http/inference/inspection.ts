import type { EndpointDefinition } from '../../domain/catalogue/catalogue.js';
import { type InspectionStageName, isInspectionStageName } from '../../domain/catalogue/stage-names.js';
import { initialStages } from '../../domain/inspections/plan.js';
import type { InspectionRequest } from '../../domain/jobs/admission.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { inspectionParamsSchema } from '../../schemas/inference-params.js';
import type { HttpRequest } from '../request.js';
import { validateParams } from '../validation.js';
import { parseInferenceBody } from './body.js';

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

/** `POST /v1/inspections`: JSON `{ input_refs, stages?: { exclude } }`. */
export async function parseInspection(request: HttpRequest, endpoint: EndpointDefinition, maxFileBytes: number): Promise<InspectionRequest> {
  const body = await parseInferenceBody(request, endpoint, maxFileBytes);
  checkStageNames(body.params);
  const params = validateParams(inspectionParamsSchema, body.params);
  const exclude: InspectionStageName[] = [...new Set(params.stages?.exclude ?? [])];
  if (exclude.length === initialStages([]).length) throw new ApiError('parameter_invalid', 'stages.exclude', 'At least one stage must run.');
  if (body.inputRefs.length === 0) throw new ApiError('missing_input', 'input_refs', 'No input was supplied: send JSON input_refs with one walk-around video and 1 to 30 photos.');
  return { kind: 'inspection', wait: false, inputRefs: body.inputRefs, exclude };
}
