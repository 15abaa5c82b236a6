import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';

/** Maps without a prototype: a client may send any name, `__proto__` and `constructor` included. */
export function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

export interface ProxyEventParts {
  /** the matched resource's path template, e.g. `/v1/jobs/{id}` */
  resource: string;
  pathParameters: Record<string, string> | null;
  body: Buffer;
  /** API Gateway passes a binary body base64-encoded (`isBase64Encoded`), any other as UTF-8 text */
  binary: boolean;
  requestContext: APIGatewayProxyEvent['requestContext'];
  /** headers API Gateway adds to what the client sent (`X-Forwarded-For`, …) */
  addedHeaders?: Record<string, string>;
}

/** Builds the REST (v1) proxy event API Gateway sends a Lambda proxy integration for this request. */
export function toProxyEvent(request: IncomingMessage, url: URL, parts: ProxyEventParts): APIGatewayProxyEvent {
  const headers = emptyRecord<string>();
  const multiValueHeaders = emptyRecord<string[]>();
  const add = (name: string, value: string) => {
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  };
  for (let i = 0; i < request.rawHeaders.length; i += 2) add(request.rawHeaders[i]!, request.rawHeaders[i + 1]!);
  for (const [name, value] of Object.entries(parts.addedHeaders ?? {})) add(name, value);
  const multiValueQuery = emptyRecord<string[]>();
  for (const [name, value] of url.searchParams) (multiValueQuery[name] ??= []).push(value);
  const singleQuery = emptyRecord<string>();
  for (const [name, list] of Object.entries(multiValueQuery)) singleQuery[name] = list[list.length - 1]!;
  const { body } = parts;
  return {
    resource: parts.resource,
    path: url.pathname,
    httpMethod: request.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: Object.keys(singleQuery).length ? singleQuery : null,
    multiValueQueryStringParameters: Object.keys(multiValueQuery).length ? multiValueQuery : null,
    pathParameters: parts.pathParameters && Object.keys(parts.pathParameters).length ? parts.pathParameters : null,
    stageVariables: null,
    requestContext: parts.requestContext,
    body: body.length === 0 ? null : parts.binary ? body.toString('base64') : body.toString('utf8'),
    isBase64Encoded: body.length > 0 && parts.binary,
  };
}
