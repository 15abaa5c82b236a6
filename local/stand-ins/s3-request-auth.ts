import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * How the local S3 stand-in authenticates a request, as S3 does (docs/internals/uploads.md, "The local file
 * store"): a SigV4 query signature (a presigned URL) or a SigV4 `Authorization` header, recomputed
 * over the request as it arrived (method, path, query, the signed headers' values), within the
 * signature's lifetime; anything else is refused with S3's error and code. Presigned PUTs sign
 * `Content-Type` and `Content-Length`, so an upload of another type or size than declared fails the
 * signature, exactly as on S3.
 */

export interface S3Request {
  method: string;
  /** the request target as sent: path and query, still percent-encoded */
  rawUrl: string;
  /** lower-case names, as Node gives them */
  headers: Record<string, string | string[] | undefined>;
}

export interface S3AuthOptions {
  /** the secret of a known access key */
  secretOf(accessKeyId: string): string | undefined;
  nowMs: number;
  /**
   * how far in the future a presigned URL's date may lie. S3 allows 15 min of clock skew; the local
   * stand-in allows any, because tests sign with a clock they move forward (docs/internals/uploads.md)
   */
  presignedFutureSkewMs?: number;
}

export type S3AuthVerdict = { ok: true; accessKeyId: string } | S3AuthFailure;

export interface S3AuthFailure {
  ok: false;
  status: 400 | 403;
  code:
    | 'AccessDenied'
    | 'SignatureDoesNotMatch'
    | 'InvalidAccessKeyId'
    | 'AuthorizationQueryParametersError'
    | 'AuthorizationHeaderMalformed'
    | 'RequestTimeTooSkewed';
  message: string;
  /** further elements of S3's error document, in order */
  details: Array<[string, string]>;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
const MAX_PRESIGNED_EXPIRES_SECONDS = 604_800;
const SKEW_MS = 15 * 60_000;

const fail = (
  status: S3AuthFailure['status'],
  code: S3AuthFailure['code'],
  message: string,
  details: S3AuthFailure['details'] = [],
): S3AuthFailure => ({
  ok: false,
  status,
  code,
  message,
  details,
});

/** RFC 3986 encoding as SigV4 canonicalises: everything but the unreserved characters. */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function decodeQueryPart(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** The query's parameters, decoded, in the order sent. */
function queryParameters(rawQuery: string): Array<[string, string]> {
  if (rawQuery === '') return [];
  return rawQuery.split('&').map((pair) => {
    const at = pair.indexOf('=');
    return at < 0
      ? [decodeQueryPart(pair), '']
      : [decodeQueryPart(pair.slice(0, at)), decodeQueryPart(pair.slice(at + 1))];
  });
}

function canonicalQuery(parameters: Array<[string, string]>): string {
  return parameters
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function headerValue(headers: S3Request['headers'], name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
}

/** `20260801T120000Z` → epoch ms; null when malformed. */
function parseAmzDate(value: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : null;
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface Signed {
  accessKeyId: string;
  /** `<date>/<region>/<service>/aws4_request` */
  scope: string;
  amzDate: string;
  signedHeaders: string[];
  signature: string;
  payloadHash: string;
  /** the query without the signature itself */
  parameters: Array<[string, string]>;
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** Recomputes the signature over the request as it arrived; null when it matches. */
function signatureMismatch(request: S3Request, path: string, signed: Signed, secret: string): S3AuthFailure | null {
  const canonicalRequest = [
    request.method.toUpperCase(),
    path,
    canonicalQuery(signed.parameters),
    ...signed.signedHeaders.map((name) => `${name}:${headerValue(request.headers, name)}`),
    '',
    signed.signedHeaders.join(';'),
    signed.payloadHash,
  ].join('\n');
  const stringToSign = [
    ALGORITHM,
    signed.amzDate,
    signed.scope,
    createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n');
  const [date, region, service, terminator] = signed.scope.split('/');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date!), region!), service!), terminator!);
  const expected = hmac(key, stringToSign);
  const provided = Buffer.from(/^[0-9a-f]{64}$/.test(signed.signature) ? signed.signature : '', 'hex');
  if (provided.length === expected.length && timingSafeEqual(provided, expected)) return null;
  return fail(
    403,
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    [
      ['AWSAccessKeyId', signed.accessKeyId],
      ['StringToSign', stringToSign],
      ['SignatureProvided', signed.signature],
      ['CanonicalRequest', canonicalRequest],
    ],
  );
}

/** The credential's scope must be well formed and name S3 on the signature's own day. */
function scopeOf(credential: string, amzDate: string): { accessKeyId: string; scope: string } | null {
  const [accessKeyId, ...scope] = credential.split('/');
  if (
    !accessKeyId ||
    scope.length !== 4 ||
    scope[2] !== 's3' ||
    scope[3] !== 'aws4_request' ||
    scope[0] !== amzDate.slice(0, 8)
  )
    return null;
  return { accessKeyId, scope: scope.join('/') };
}

function checkQuerySignature(
  request: S3Request,
  path: string,
  rawQuery: string,
  options: S3AuthOptions,
): S3AuthVerdict {
  const all = queryParameters(rawQuery);
  const get = (name: string) => all.find(([key]) => key === name)?.[1];
  const required = [
    'X-Amz-Algorithm',
    'X-Amz-Credential',
    'X-Amz-Signature',
    'X-Amz-Date',
    'X-Amz-SignedHeaders',
    'X-Amz-Expires',
  ];
  if (required.some((name) => get(name) === undefined) || get('X-Amz-Algorithm') !== ALGORITHM)
    return fail(
      400,
      'AuthorizationQueryParametersError',
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  const amzDate = get('X-Amz-Date')!;
  const signedAt = parseAmzDate(amzDate);
  const expires = Number(get('X-Amz-Expires'));
  if (signedAt === null)
    return fail(403, 'AccessDenied', "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
  if (!Number.isInteger(expires) || expires < 0 || expires > MAX_PRESIGNED_EXPIRES_SECONDS)
    return fail(
      400,
      'AuthorizationQueryParametersError',
      'X-Amz-Expires must be less than a week (in seconds) that is; 604800 seconds',
    );
  const credential = scopeOf(get('X-Amz-Credential')!, amzDate);
  if (!credential)
    return fail(
      400,
      'AuthorizationQueryParametersError',
      'Error parsing the X-Amz-Credential parameter; the scope must be <date>/<region>/s3/aws4_request.',
    );
  const secret = options.secretOf(credential.accessKeyId);
  if (secret === undefined)
    return fail(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', [
      ['AWSAccessKeyId', credential.accessKeyId],
    ]);
  if (options.nowMs < signedAt - (options.presignedFutureSkewMs ?? SKEW_MS))
    return fail(403, 'AccessDenied', 'Request is not valid yet');
  // S3 compares in whole seconds: a URL is good through its last second
  if (Math.floor(options.nowMs / 1000) * 1000 > signedAt + expires * 1000)
    return fail(403, 'AccessDenied', 'Request has expired', [
      ['X-Amz-Expires', String(expires)],
      ['Expires', isoSeconds(signedAt + expires * 1000)],
      ['ServerTime', isoSeconds(options.nowMs)],
    ]);
  const signedHeaders = get('X-Amz-SignedHeaders')!.split(';');
  const mismatch = signatureMismatch(
    request,
    path,
    {
      ...credential,
      amzDate,
      signedHeaders,
      signature: get('X-Amz-Signature')!,
      payloadHash: UNSIGNED_PAYLOAD,
      parameters: all.filter(([name]) => name !== 'X-Amz-Signature'),
    },
    secret,
  );
  return mismatch ?? { ok: true, accessKeyId: credential.accessKeyId };
}

function checkHeaderSignature(
  request: S3Request,
  path: string,
  rawQuery: string,
  authorization: string,
  options: S3AuthOptions,
): S3AuthVerdict {
  const fields = Object.fromEntries(
    authorization
      .slice(ALGORITHM.length)
      .split(',')
      .map((part) => part.trim().split('=') as [string, string?]),
  );
  const amzDate = headerValue(request.headers, 'x-amz-date');
  const signedAt = parseAmzDate(amzDate);
  const credential = fields.Credential ? scopeOf(fields.Credential, amzDate) : null;
  if (!credential || !fields.SignedHeaders || !fields.Signature || signedAt === null)
    return fail(
      400,
      'AuthorizationHeaderMalformed',
      'The authorization header is malformed; it must name Credential, SignedHeaders and Signature, with an x-amz-date header of the same day.',
    );
  const secret = options.secretOf(credential.accessKeyId);
  if (secret === undefined)
    return fail(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', [
      ['AWSAccessKeyId', credential.accessKeyId],
    ]);
  if (Math.abs(options.nowMs - signedAt) > SKEW_MS)
    return fail(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
      [
        ['RequestTime', isoSeconds(signedAt)],
        ['ServerTime', isoSeconds(options.nowMs)],
        ['MaxAllowedSkewMilliseconds', String(SKEW_MS)],
      ],
    );
  const mismatch = signatureMismatch(
    request,
    path,
    {
      ...credential,
      amzDate,
      signedHeaders: fields.SignedHeaders.split(';'),
      signature: fields.Signature,
      // S3 requires the header; its value (a hash, UNSIGNED-PAYLOAD or a streaming mode) is what was signed
      payloadHash: headerValue(request.headers, 'x-amz-content-sha256'),
      parameters: queryParameters(rawQuery),
    },
    secret,
  );
  return mismatch ?? { ok: true, accessKeyId: credential.accessKeyId };
}

/** Authenticates one S3 request: presigned URL, `Authorization` header, or neither (refused). */
export function authenticateS3Request(request: S3Request, options: S3AuthOptions): S3AuthVerdict {
  const at = request.rawUrl.indexOf('?');
  const path = at < 0 ? request.rawUrl : request.rawUrl.slice(0, at);
  const rawQuery = at < 0 ? '' : request.rawUrl.slice(at + 1);
  const authorization = headerValue(request.headers, 'authorization');
  if (authorization.startsWith(`${ALGORITHM} `))
    return checkHeaderSignature(request, path, rawQuery, authorization, options);
  if (authorization !== '')
    return fail(400, 'AuthorizationHeaderMalformed', `Only ${ALGORITHM} authorization is supported.`);
  if (/(^|&)X-Amz-(Algorithm|Credential|Signature)=/.test(rawQuery))
    return checkQuerySignature(request, path, rawQuery, options);
  return fail(403, 'AccessDenied', 'Access Denied');
}

const escapeXml = (value: string) => value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** S3's error document, with its request ids. */
export function s3ErrorDocument(failure: S3AuthFailure): { body: string; requestId: string; hostId: string } {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const hostId = randomBytes(32).toString('base64');
  const elements: Array<[string, string]> = [
    ['Code', failure.code],
    ['Message', failure.message],
    ...failure.details,
    ['RequestId', requestId],
    ['HostId', hostId],
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${elements.map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`).join('')}</Error>`;
  return { body, requestId, hostId };
}
