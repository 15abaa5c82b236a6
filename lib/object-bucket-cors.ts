/**
 * The object bucket's one CORS rule: a browser page (the dashboard's playground, a customer's own
 * web app) may PUT an upload's bytes to the presigned URL `POST /v1/uploads` returned. Any origin:
 * the URL's signature is what authorises the write, for one key, content type and lifetime; the
 * rule only lets a browser send it. Nothing else is allowed cross-origin (signed result URLs are
 * shown as pictures and videos, which need no CORS). The CDK bucket and the local S3 stand-in both
 * apply this rule (docs/uploads.md, "From a browser").
 */
export const OBJECT_BUCKET_CORS = {
  allowedOrigins: ['*'],
  allowedMethods: ['PUT'],
  allowedHeaders: ['content-type'],
  maxAgeSeconds: 3000,
} as const;
