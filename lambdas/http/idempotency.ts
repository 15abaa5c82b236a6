import { createHash } from 'node:crypto';
import { IDEMPOTENCY_HEADER } from '../domain/access/idempotency.js';
import { SCENARIO_HEADER } from '../domain/jobs/admission.js';
import { DEADLINE_HEADER } from '../domain/jobs/deadline-timer.js';
import type { ErrorEnvelope } from '../domain/kernel/errors.js';
import type { StoredResponse } from '../domain/ports/access.js';
import { type HttpRequest, mediaType } from './request.js';
import type { HttpResponse } from './response.js';

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A multipart body's fingerprint independent of its random boundary (see multipart.ts). Passed in
 * by the routes that accept multipart bodies, so busboy is bundled only into the Lambdas that parse them.
 */
export type MultipartFingerprint = (request: HttpRequest) => Promise<string>;

async function contentFingerprint(request: HttpRequest, multipart: MultipartFingerprint | undefined): Promise<string> {
  const type = mediaType(request);
  // a route without multipart bodies refuses one whatever its boundary: its raw bytes are enough
  if (type === 'multipart/form-data' && multipart) return multipart(request);
  if (type === 'application/json') {
    try {
      return createHash('sha256')
        .update(canonicalJson(JSON.parse(request.body.toString('utf8'))))
        .digest('hex');
    } catch {
      // unparseable: the bytes themselves
    }
  }
  return createHash('sha256').update(request.body).digest('hex');
}

/**
 * Method, path, query, the test-scenario header (unless the caller's mode ignores it), `Svc-Deadline` and the
 * content decide whether two requests are "the same".
 */
async function requestFingerprint(
  request: HttpRequest,
  multipart: MultipartFingerprint | undefined,
  scenarioIgnored: boolean,
): Promise<string> {
  const query = Object.keys(request.query)
    .sort()
    .map((name) => `${name}=${request.query[name]!.join(',')}`)
    .join('&');
  const scenario = scenarioIgnored ? '' : (request.headers[SCENARIO_HEADER.toLowerCase()] ?? '');
  // Svc-Deadline only when sent, so the fingerprints of requests without it are what they always were
  const deadline = request.headers[DEADLINE_HEADER.toLowerCase()];
  return createHash('sha256')
    .update(
      [
        request.method,
        request.path,
        query,
        scenario,
        await contentFingerprint(request, multipart),
        ...(deadline === undefined ? [] : [`deadline=${deadline}`]),
      ].join('\n'),
    )
    .digest('hex');
}

/**
 * The stored form of an answer that carries a secret: an API key's `secret`, or an invitation's
 * `invite_url` (a sign-in link holding a token) is shown once and never stored.
 */
export function withoutSecret(response: HttpResponse): HttpResponse {
  if (
    typeof response.body !== 'object' ||
    response.body === null ||
    !('secret' in response.body || 'invite_url' in response.body)
  )
    return response;
  const { secret: _secret, invite_url: _inviteUrl, ...body } = response.body as Record<string, unknown>;
  return { ...response, body };
}

export function toStored(response: HttpResponse): StoredResponse {
  return { status: response.status, contentType: response.contentType ?? 'application/json', body: response.body };
}

function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== 'object' || body === null || Object.keys(body).length !== 1) return false;
  const error = (body as Partial<ErrorEnvelope>).error;
  return typeof error === 'object' && error !== null && 'request_id' in error;
}

/** A replay is a new request: a stored error names this request's id, as its Request-Id header does. */
export function fromStored(stored: StoredResponse, requestId: string): HttpResponse {
  const body = isErrorEnvelope(stored.body) ? { error: { ...stored.body.error, request_id: requestId } } : stored.body;
  return {
    status: stored.status,
    body,
    ...(stored.contentType !== 'application/json' ? { contentType: stored.contentType } : {}),
    headers: { 'Idempotent-Replayed': 'true' },
  };
}

interface FingerprintOptions {
  multipartFingerprint?: MultipartFingerprint | undefined;
  /** live keys ignore `X-Svc-Test-Scenario`, so it does not make their requests differ */
  scenarioIgnored?: boolean;
}

/** The request's `Idempotency-Key` (on a POST) and the fingerprint of what it names; null without one. */
export async function idempotencyKeyOf(
  request: HttpRequest,
  options: FingerprintOptions = {},
): Promise<{ key: string; fingerprint: string } | null> {
  const key = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
  if (request.method !== 'POST' || key === undefined) return null;
  return {
    key,
    fingerprint: await requestFingerprint(request, options.multipartFingerprint, options.scenarioIgnored ?? false),
  };
}
