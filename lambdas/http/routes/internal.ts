import * as z from 'zod/mini';
import { CompletionAckSchema, CompletionCallbackSchema } from '../../schemas/completions.js';
import { BillingEventAckSchema, JwksSchema } from '../../schemas/management.js';
import { defineRoute, JSON_BODY_BYTES } from './define.js';

const TAG = 'Internal';

export const getOpenApi = defineRoute({
  id: 'get-openapi',
  method: 'GET',
  path: '/v1/openapi.json',
  summary: 'This OpenAPI 3.1 document',
  tag: TAG,
  auth: 'none',
  responses: { 200: { description: 'the OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
  errors: [],
  // generated from code: no data access at all
  access: { table: 'none' },
  handler: 'docs#getOpenApi',
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

export const getErrorDoc = defineRoute({
  id: 'get-error-doc',
  method: 'GET',
  path: '/docs/errors/{code}',
  summary: 'Documentation page of an error code',
  tag: TAG,
  auth: 'none',
  params: z.object({ code: z.string().check(z.regex(/^[a-z_]{1,64}$/)) }),
  notFound: 'resource_not_found',
  responses: { 200: { description: 'an HTML page', contentType: 'text/html' } },
  errors: [],
  access: { table: 'none' },
  handler: 'docs#getErrorDoc',
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

export const getJwks = defineRoute({
  id: 'get-jwks',
  method: 'GET',
  path: '/.well-known/jwks.json',
  summary: 'The public keys dashboard tokens are verified with (JWKS)',
  tag: TAG,
  auth: 'none',
  responses: { 200: { description: 'a JSON Web Key Set', schema: JwksSchema } },
  errors: [],
  access: { table: 'none' },
  settings: ['jwt_issuer'],
  handler: 'sign-in#getJwks',
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

export const receiveCompletion = defineRoute({
  id: 'receive-completion',
  method: 'POST',
  path: '/internal/v1/completions',
  summary: 'The inference plane reports a live job it accepted (X-Inference-Signature); settles it exactly once',
  tag: TAG,
  auth: 'signature',
  signatureHeader: 'X-Inference-Signature',
  // the pipeline checks the signature over the raw body before the body is parsed
  body: CompletionCallbackSchema,
  responses: {
    200: {
      description: 'acknowledged: the job settled now, or had already settled (a repeat changes nothing)',
      schema: CompletionAckSchema,
    },
  },
  errors: ['job_not_found', 'job_not_processing'],
  // the settlement transaction of a live job; HEAD of the produced files the plane wrote under
  // outputs/ (ListBucket, so a missing file is a 404 and a 400 for the plane, not a 403)
  // deletes what the plane writes for a job already redacted (docs/data-retention.md); the last
  // settlement of a batch's job writes the batch's output file, reading its input file for lines never admitted (docs/batches.md)
  access: {
    table: 'readwrite',
    readObjects: ['outputs', 'uploads'],
    writeObjects: ['outputs'],
    listObjects: true,
    deleteObjects: ['outputs'],
    enqueueWebhooks: true,
  },
  settings: ['inference_callback_secret'],
  handler: 'completions#receiveCompletion',
  timeoutSeconds: 10,
  maxBodyBytes: JSON_BODY_BYTES,
});

export const receiveBillingEvent = defineRoute({
  id: 'receive-billing-event',
  method: 'POST',
  path: '/internal/v1/billing/events',
  summary: "The payment provider's signed events (Stripe-Signature); deposits credits exactly once per event",
  tag: TAG,
  auth: 'signature',
  signatureHeader: 'Stripe-Signature',
  responses: { 200: { description: 'acknowledged', schema: BillingEventAckSchema } },
  errors: [],
  // the exactly-once deposit transaction
  access: { table: 'readwrite' },
  settings: ['payments'],
  handler: 'billing#receiveBillingEvent',
  timeoutSeconds: 10,
  maxBodyBytes: JSON_BODY_BYTES,
});

export const INTERNAL_ROUTES = [getOpenApi, getErrorDoc, getJwks, receiveCompletion, receiveBillingEvent] as const;
