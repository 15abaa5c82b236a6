import { SUBMIT_TIMEOUT_MS } from '../lambdas/adapters/http-inference-plane.js';
import { DEFAULT_QUEUE_TIMEOUT_SECONDS } from '../lambdas/domain/catalogue/catalogue.js';
import { ERROR_CODES, type ErrorCode } from '../lambdas/domain/kernel/errors.js';
import { INFERENCE_SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS } from '../lambdas/domain/kernel/signatures.js';
import { DEFAULT_CONFIG } from '../lambdas/domain/ports/services.js';
import { errorCodesOf } from '../lambdas/http/routes/error-codes.js';
import { route as receiveCompletion } from '../lambdas/http/routes/internal/receive-completion.js';
import { CALLBACK_ATTEMPTS } from '../lambdas/planes/callback-delivery.js';
import { CompletionAckSchema, CompletionCallbackSchema } from '../lambdas/schemas/completions.js';
import {
  InferenceCancellationSchema,
  InferenceSubmissionSchema,
  RETRIED_CALLBACK_STATUSES,
  SubmissionAcceptedSchema,
} from '../lambdas/schemas/inference-plane.js';
import { ErrorEnvelopeSchema } from '../lambdas/schemas/records.js';
import { SchemaCollector } from './openapi.js';

const SIGNATURE = {
  name: INFERENCE_SIGNATURE_HEADER,
  in: 'header',
  required: true,
  description: `t=<unix seconds>,v1=<hex HMAC-SHA256(shared secret, "<t>.<raw body>")>. Verify it over the raw bytes before parsing; refuse a timestamp more than ${SIGNATURE_TOLERANCE_SECONDS} s from your clock.`,
  schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
};

/** The callback route's error answers, from the route's own declared codes (as the service's OpenAPI document lists them). */
function callbackErrors(): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(receiveCompletion))
    byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  const advice = (status: number) =>
    RETRIED_CALLBACK_STATUSES.includes(status)
      ? `Try again with backoff (the reference plane: ${CALLBACK_ATTEMPTS} attempts, 0.2 s doubling to 2 s); if the service never records it, it submits the job again later.`
      : 'Do not retry the same body: fix what the error names.';
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      {
        description: `error codes: ${codes.join(', ')}. ${advice(status)}`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      },
    ]),
  );
}

/**
 * The inference plane's side of the interface as an OpenAPI 3.1 document, generated from the
 * schemas the code uses: the submission the HTTP adapter builds and the reference plane parses,
 * and the callback the completion route validates. An ML team builds a plane against it;
 * `npm run plane:check` tests one.
 */
export function buildInferencePlaneDocument(): Record<string, unknown> {
  const collector = new SchemaCollector();
  collector.convert(ErrorEnvelopeSchema);
  const {
    liveResubmitSeconds: resubmit,
    liveProcessingTimeoutSeconds: giveUp,
    redriveAfterSeconds: redrive,
  } = DEFAULT_CONFIG;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Automotive Inference Service: the inference plane contract',
      version: DEFAULT_CONFIG.apiVersion,
      description: [
        'What the service sends an inference plane for each live job, and the completion callback it expects back (docs/internals/inference-plane.md).',
        `The service POSTs an InferenceSubmission to the plane's URL (INFERENCE_PLANE_URL), signed with ${INFERENCE_SIGNATURE_HEADER}. Any 2xx within ${SUBMIT_TIMEOUT_MS / 1000} s accepts the job (it turns processing); anything else, or no answer, leaves it queued and the service offers it again about every ${redrive} s, until the endpoint's queue timeout (default ${DEFAULT_QUEUE_TIMEOUT_SECONDS} s) expires it (job_expired).`,
        `Once it has accepted a job, the plane writes produced files under output_prefix and POSTs one CompletionCallback to callback_url, signed the same way. A job not reported ${resubmit} s after acceptance is submitted again (same job_id): accept it again, work it at most once if you can, and report it (again). The first callback settles the job; any later one is answered 200 and changes nothing. A job still unreported ${giveUp} s after acceptance fails as upstream_timeout, its credits released.`,
      ].join('\n\n'),
    },
    servers: [
      {
        url: '{plane_url}',
        variables: {
          plane_url: {
            default: 'https://plane.example.com/jobs',
            description: "the plane's submission URL (INFERENCE_PLANE_URL)",
          },
        },
      },
    ],
    paths: {
      '/': {
        post: {
          operationId: 'submitJob',
          summary: 'The service submits a live job',
          description: `Answer fast (within ${SUBMIT_TIMEOUT_MS / 1000} s) and work the job afterwards: the callback may arrive before the service has recorded the acceptance, in which case it answers 409 and the plane tries again.`,
          parameters: [SIGNATURE],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: collector.convert(InferenceSubmissionSchema) } },
          },
          responses: {
            '202': {
              description: 'accepted (any 2xx accepts; the body is not read)',
              content: { 'application/json': { schema: collector.convert(SubmissionAcceptedSchema) } },
            },
            '400': { description: 'not an InferenceSubmission: refused, the service offers it again later' },
            '401': { description: 'signature missing, wrong or outside the tolerance: refused' },
            default: { description: 'not accepted: the job stays queued and is offered again on the next sweep' },
          },
          callbacks: {
            completion: {
              '{$request.body#/callback_url}': {
                post: {
                  operationId: 'reportCompletion',
                  summary: 'The plane reports the outcome of an accepted job',
                  parameters: [SIGNATURE],
                  requestBody: {
                    required: true,
                    content: { 'application/json': { schema: collector.convert(CompletionCallbackSchema, 'input') } },
                  },
                  responses: {
                    '200': {
                      description: 'recorded: the job settled now, or had settled already (a repeat changes nothing)',
                      content: { 'application/json': { schema: collector.convert(CompletionAckSchema) } },
                    },
                    ...callbackErrors(),
                  },
                },
              },
            },
          },
        },
      },
      '/cancel': {
        post: {
          operationId: 'cancelJob',
          summary: 'The service tells the plane to stop an accepted job',
          description: `Sent once, signed like a submission, when an accepted job's Svc-Deadline passed: the job is already expired and charged nothing, so the plane should stop working it and need not call back. A callback sent anyway is answered 200 and changes nothing. The service does not retry this call and reads no body: any 2xx is fine, and a plane without this operation loses only the work it goes on doing.`,
          parameters: [SIGNATURE],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: collector.convert(InferenceCancellationSchema) } },
          },
          responses: {
            '200': { description: 'noted (any 2xx; the body is not read)' },
            default: { description: 'ignored: the job is expired either way' },
          },
        },
      },
    },
    components: { schemas: collector.components },
  };
}
