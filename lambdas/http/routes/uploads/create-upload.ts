import { ALL_UPLOAD_MEDIA_TYPES, createUpload as create } from '../../../domain/jobs/uploads.js';
import { ApiError } from '../../../domain/kernel/errors.js';
import { CreateUploadSchema, UploadSchema } from '../../../schemas/records.js';
import { implement } from '../../implement.js';
import { defineRoute, JSON_BODY_BYTES } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'create-upload',
  method: 'POST',
  path: '/v1/uploads',
  summary: 'Create a presigned upload; pass its upload_ref as input_ref / input_refs',
  tag: 'Uploads',
  auth: 'api_key',
  middleware: ['read-rate-limit', 'idempotency', 'strict-input'],
  body: CreateUploadSchema,
  responses: { 201: { description: 'the upload: PUT the bytes to url with the given headers', schema: UploadSchema } },
  errors: [],
  // records the upload ref, signs a PUT under uploads/
  access: { table: 'readwrite', writeObjects: ['uploads'] },
  timeoutSeconds: 10,
  maxBodyBytes: JSON_BODY_BYTES,
});

/** `POST /v1/uploads`: a presigned PUT for one file, and the upload_ref to pass as input_ref(s). */
export const handler = implement(route, async ({ services, principal, body }) => {
  const contentType = body.content_type.toLowerCase();
  if (!ALL_UPLOAD_MEDIA_TYPES.includes(contentType)) {
    throw new ApiError(
      'parameter_invalid',
      'content_type',
      `content_type must be one of ${ALL_UPLOAD_MEDIA_TYPES.join(', ')}.`,
    );
  }
  return { status: 201, body: await create(services, principal, { ...body, content_type: contentType }) };
});
