import type { APIGatewayProxyEvent } from 'aws-lambda';

/** An API Gateway REST proxy event, normalised once so handlers never touch raw event fields: what the client sent, and nothing else. */
export interface HttpRequest {
  requestId: string;
  method: string;
  path: string;
  /** header names lower-cased */
  headers: Record<string, string>;
  query: Record<string, string[]>;
  pathParameters: Record<string, string>;
  body: Buffer;
}

/** Maps without a prototype: a client may send any name, `__proto__` and `constructor` included. */
function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** What the request's log line says beyond its route and status: filled as the pipeline learns it. */
export interface RequestLogFields {
  org_id?: string;
  job_id?: string;
}

export function normaliseEvent(event: APIGatewayProxyEvent, requestId: string): HttpRequest {
  const headers = emptyRecord<string>();
  for (const [name, value] of Object.entries(event.headers ?? {}))
    if (value !== undefined) headers[name.toLowerCase()] = value;
  const query = emptyRecord<string[]>();
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {}))
    if (values) query[name] = values;
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {}))
    if (value !== undefined && !query[name]) query[name] = [value];
  const pathParameters = emptyRecord<string>();
  for (const [name, value] of Object.entries(event.pathParameters ?? {}))
    if (value !== undefined) pathParameters[name] = value;
  const body = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  return { requestId, method: event.httpMethod, path: event.path, headers, query, pathParameters, body };
}

/** Media type without parameters, lower-cased. */
export function mediaType(request: HttpRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}
