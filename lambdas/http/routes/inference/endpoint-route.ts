import type { EndpointDefinition } from '../../../domain/catalogue/catalogue.js';
import type { ErrorCode } from '../../../domain/kernel/errors.js';

// What a call's route and its quote's route share: their tag and the codes the call can answer.

/** The OpenAPI tag of an endpoint family's routes. */
export const FAMILY_TAGS: Record<string, string> = {
  A: 'A · Understand the vehicle',
  B: 'B · Damage and condition',
  C: 'C · Parts',
  D: 'D · Money',
  E: 'E · Image production',
  inspections: 'Inspections',
};

/** The codes a call of `endpoint` can answer from its own checks (the pipeline's are added by `errorCodesOf`). */
export function endpointErrors(endpoint: EndpointDefinition): ErrorCode[] {
  return [
    'scope_not_granted',
    'parameter_invalid',
    'parameter_missing',
    'parameter_unknown',
    'invalid_json',
    'unsupported_media_type',
    'test_scenario_not_supported',
    'insufficient_credits',
    'spend_limit_exceeded',
    ...(endpoint.fileField
      ? (['missing_input', 'upload_not_found', 'upload_already_consumed', 'too_many_files'] as ErrorCode[])
      : []),
    ...(endpoint.fileField && !endpoint.requiresJsonEncoding
      ? (['invalid_multipart', 'file_too_large'] as ErrorCode[])
      : []),
    // a live call of an endpoint the stack's plane does not compute (docs/internals/inference-plane.md)
    'endpoint_not_available',
    ...(endpoint.acceptsWait ? [] : (['wait_not_supported'] as ErrorCode[])),
    ...(endpoint.requiresJsonEncoding ? (['json_encoding_required'] as ErrorCode[]) : []),
    ...endpoint.paramErrors,
  ];
}
