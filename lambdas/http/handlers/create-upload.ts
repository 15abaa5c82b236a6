import { lambdaEntry } from '../lambda-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { ALL_UPLOAD_MEDIA_TYPES, createUpload } from '../../domain/jobs/uploads.js';
import { CreateUploadSchema } from '../../schemas/records.js';
import { apiRoute } from '../api-route.js';
import type { HttpHandler } from '../handler.js';
import { parseJsonBody } from '../json-body.js';
import { json } from '../response.js';

/** `POST /v1/uploads`: a presigned PUT for one file, and the upload_ref to pass as input_ref(s). */
export function createUploadHandler(services: Services): HttpHandler {
  return apiRoute(services, async (request, principal) => {
    const body = parseJsonBody(request, CreateUploadSchema);
    const contentType = body.content_type.toLowerCase();
    if (!ALL_UPLOAD_MEDIA_TYPES.includes(contentType)) {
      throw new ApiError('parameter_invalid', 'content_type', `content_type must be one of ${ALL_UPLOAD_MEDIA_TYPES.join(', ')}.`);
    }
    return json(201, await createUpload(services, principal, { ...body, content_type: contentType }));
  });
}

export const handler = lambdaEntry((container) => createUploadHandler(container));
