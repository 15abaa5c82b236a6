import { epochSeconds } from '../domain/kernel/clock.js';
import { ApiError } from '../domain/kernel/errors.js';
import {
  INFERENCE_SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
  type SignatureFailure,
  verifySignatureHeader,
} from '../domain/kernel/signatures.js';
import type { Services } from '../domain/ports/services.js';
import type { HttpRequest } from './request.js';

const SIGNATURE_MESSAGES: Record<SignatureFailure, string> = {
  missing: `The ${INFERENCE_SIGNATURE_HEADER} header is missing.`,
  malformed: `The ${INFERENCE_SIGNATURE_HEADER} header is malformed: expected t=<unix seconds>,v1=<hex HMAC-SHA256>.`,
  mismatch: `The ${INFERENCE_SIGNATURE_HEADER} does not match the body.`,
  outside_tolerance: `The ${INFERENCE_SIGNATURE_HEADER} timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from the server clock.`,
};

/** The inference plane's HMAC over the raw body, checked before anything in the body is read. */
export function requireInferenceSignature(services: Services, request: HttpRequest): void {
  const secret = services.config.inferenceCallbackSecret;
  if (!secret) throw new ApiError('service_unavailable', null, 'No inference callback secret is configured.');
  const failure = verifySignatureHeader(
    request.headers[INFERENCE_SIGNATURE_HEADER.toLowerCase()],
    request.body,
    secret,
    epochSeconds(services.clock),
  );
  if (failure) throw new ApiError('invalid_signature', INFERENCE_SIGNATURE_HEADER, SIGNATURE_MESSAGES[failure]);
}
