import { call } from './http.js';

/** Creates an upload, PUTs the bytes to its presigned URL and returns the upload_ref. */
export async function uploadFile(
  baseUrl: string,
  key: string,
  contentType: string,
  bytes: Buffer,
  filename?: string,
): Promise<string> {
  const created = await call(baseUrl, 'POST', '/v1/uploads', {
    key,
    json: { content_type: contentType, size_bytes: bytes.length, ...(filename ? { filename } : {}) },
  });
  if (created.status !== 201) throw new Error(`upload creation failed: ${JSON.stringify(created.body)}`);
  const put = await fetch(created.body.url, { method: 'PUT', headers: created.body.headers, body: bytes });
  if (!put.ok) throw new Error(`PUT to the presigned URL failed with ${put.status}`);
  return created.body.upload_ref as string;
}
