/**
 * The browser security headers of every answer, in one place: the Lambda handler wrapper (every
 * route, on AWS and locally), the local adapter (the documentation site, the dashboard and the
 * answers it gives itself), API Gateway's own error answers and CloudFront's response headers
 * policy all read these. docs/internals/operations.md ("Browser security headers") explains each choice.
 */

/** Headers every answer carries, whatever it is. */
export const COMMON_SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
} as const;

/** A JSON answer (or anything that is not a page) loads nothing and is framed by nobody. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Sent by CloudFront only: browsers ignore it over plain http, where the local runtime runs. */
export const STRICT_TRANSPORT_SECURITY = { maxAgeSeconds: 63_072_000, includeSubdomains: true } as const;

/**
 * Every page (documentation site, dashboard, error pages, the local payment pages) loads only
 * from its own origin. The exceptions, each needed by something on the pages:
 * - `style-src 'unsafe-inline'`: the error and local payment pages carry their own `<style>`
 *   block; scripts stay strict (no inline script, no eval).
 * - `img-src data:`: icons and the playground's picture inlined by the dashboard.
 * - `objectOrigins`: where signed result and input URLs point (the object store), so the
 *   dashboard can show a job's images and video frames, and where presigned upload URLs point, so
 *   the playground can PUT an upload's bytes (connect-src); locally the S3 stand-in (S3_PORT), on
 *   AWS the region's S3 hosts.
 * - `signInOrigins`: where the dashboard exchanges its sign-in code for tokens (on AWS with
 *   `-c signup=cognito`, the hosted UI's origin; locally the runtime itself, so none).
 */
export function pageContentSecurityPolicy(
  objectOrigins: readonly string[] = [],
  signInOrigins: readonly string[] = [],
): string {
  const objects = objectOrigins.length ? ` ${objectOrigins.join(' ')}` : '';
  const signIn = signInOrigins.length ? ` ${signInOrigins.join(' ')}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${objects}`,
    `media-src 'self'${objects}`,
    `connect-src 'self'${signIn}${objects}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of an HTML page. */
export function pageSecurityHeaders(objectOrigins: readonly string[] = []): Record<string, string> {
  return { ...COMMON_SECURITY_HEADERS, 'Content-Security-Policy': pageContentSecurityPolicy(objectOrigins) };
}

/** The headers of a non-page answer: JSON, the OpenAPI document, scripts and styles, errors. */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON_SECURITY_HEADERS,
  'Content-Security-Policy': API_CONTENT_SECURITY_POLICY,
};

/** The headers an answer of this media type carries (a page gets the page policy). */
export function securityHeadersFor(
  contentType: string | undefined,
  objectOrigins: readonly string[] = [],
): Record<string, string> {
  return /^text\/html\b/i.test(contentType ?? '') ? pageSecurityHeaders(objectOrigins) : { ...API_SECURITY_HEADERS };
}
