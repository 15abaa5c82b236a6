import { CreateUploadSchema, UploadSchema } from '../../schemas/records.js';
import { defineRoute, JSON_BODY_BYTES } from './define.js';

export const createUpload = defineRoute({
  id: 'create-upload',
  method: 'POST',
  path: '/v1/uploads',
  summary: 'Create a presigned upload; pass its upload_ref as input_ref / input_refs',
  tag: 'Uploads',
  auth: 'api_key',
  body: CreateUploadSchema,
  responses: { 201: { description: 'the upload: PUT the bytes to url with the given headers', schema: UploadSchema } },
  errors: [],
  // records the upload ref, signs a PUT under uploads/
  access: { table: 'readwrite', writeObjects: ['uploads'] },
  handler: 'uploads#createUpload',
  timeoutSeconds: 10,
  maxBodyBytes: JSON_BODY_BYTES,
});

export const UPLOAD_ROUTES = [createUpload] as const;
