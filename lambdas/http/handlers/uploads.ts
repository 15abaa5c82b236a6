import { ALL_UPLOAD_MEDIA_TYPES, createUpload as create } from '../../domain/jobs/uploads.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { implement } from '../implement.js';
import * as uploads from '../routes/uploads.js';

// Presigned uploads: a reference to pass as an input instead of the bytes.

/** `POST /v1/uploads`: a presigned PUT for one file, and the upload_ref to pass as input_ref(s). */
export const createUpload = implement(uploads.createUpload, async ({ services, principal, body }) => {
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
