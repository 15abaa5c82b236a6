/**
 * The codes a job's `error` carries once it has failed or expired: the one list the job records,
 * the OpenAPI document (`JobErrorCode`, also part of `ErrorCode`) and the typed client read.
 * A later API version may add codes; a program handles an unknown one by the error's `type`.
 */
export const JOB_ERROR_CODES = {
  model_inference_failed: { type: 'processing_error', meaning: 'The model failed to produce a result.' },
  unreadable_input: {
    type: 'invalid_request',
    meaning: 'An input could not be decoded as the media type it declared.',
  },
  upstream_timeout: {
    type: 'processing_error',
    meaning: 'The model, or a stage of an inspection, did not answer in time.',
  },
  job_expired: {
    type: 'processing_error',
    meaning: 'The job waited in the queue past its time to live; its reservation was released.',
  },
  deadline_exceeded: {
    type: 'processing_error',
    meaning: 'The job was not settled within its Svc-Deadline; its reservation was released.',
  },
  internal_error: { type: 'internal', meaning: 'The service failed the job itself; nothing was charged.' },
} as const;

export type JobErrorCode = keyof typeof JOB_ERROR_CODES;
export const JOB_ERROR_CODE_LIST = Object.keys(JOB_ERROR_CODES) as [JobErrorCode, ...JobErrorCode[]];

/** What an inference plane may report for a job it failed (docs/internals/inference-plane.md): expiry and deadlines are the service's own. */
export const PLANE_ERROR_CODES = ['model_inference_failed', 'unreadable_input', 'upstream_timeout'] as const;
export type PlaneErrorCode = (typeof PLANE_ERROR_CODES)[number];
