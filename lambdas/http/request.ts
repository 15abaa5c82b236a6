import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { IdempotencyClaim } from '../domain/access/idempotency.js';

/** An API Gateway REST proxy event, normalised once so handlers never touch raw event fields. */
export interface HttpRequest {
  requestId: string;
  method: string;
  path: string;
  /** header names lower-cased */
  headers: Record<string, string>;
  query: Record<string, string[]>;
  pathParameters: Record<string, string>;
  body: Buffer;
  /** set while a POST runs under a claimed Idempotency-Key */
  idempotency?: IdempotencyClaim;
}

export function normaliseEvent(event: APIGatewayProxyEvent, requestId: string): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
  const query: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) if (values) query[name] = values;
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined && !query[name]) query[name] = [value];
  const pathParameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.pathParameters ?? {})) if (value !== undefined) pathParameters[name] = value;
  const body = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  return { requestId, method: event.httpMethod, path: event.path, headers, query, pathParameters, body };
}

/** Media type without parameters, lower-cased. */
export function mediaType(request: HttpRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

export function bearerToken(request: HttpRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match ? match[1]! : null;
}
