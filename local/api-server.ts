import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { CATALOGUE } from '../lambdas/domain/catalogue/catalogue.js';
import { ApiError, ERROR_CODES, type ErrorCode, errorEnvelope } from '../lambdas/domain/kernel/errors.js';
import { randomId } from '../lambdas/domain/kernel/ids.js';
import type { Services } from '../lambdas/domain/ports/services.js';
import type { BoundRoute } from '../lambdas/http/handler.js';
import { authenticateCaller } from '../lambdas/http/header-authentication.js';
import { errorResult } from '../lambdas/http/middleware/error-envelope.js';
import { RefusalWithHeaders } from '../lambdas/http/response.js';
import { isCatchAll, type RouteDefinition } from '../lambdas/http/routes/define.js';
import { routeNotFound } from '../lambdas/http/routes/internal/route-not-found.js';
import { API_SECURITY_HEADERS, securityHeadersFor } from '../lambdas/http/security-headers.js';
import { DEFAULT_INTEGRATION_TIMEOUT_SECONDS, INTEGRATION_TIMEOUT_MESSAGE } from '../lib/wait-ceiling.js';
import type { SiteFile } from '../site/site.js';
import type { LocalAuthorizationServer } from './local-authorization.js';
import { emptyRecord, toProxyEvent } from './proxy-event.js';

/** Routes that take no body still tolerate a small one (a stray `{}`), as API Gateway does. */
const MIN_BODY_BYTES = 64 * 1024;
/**
 * How much of a refused body is still read (and dropped) after the answer, so that a client still
 * sending gets to read the answer instead of a connection reset; past it the connection is closed.
 */
export const REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
export const REFUSED_BODY_DRAIN_MS = 10_000;
const TEXT_TYPES = /^(application\/json|text\/|application\/x-www-form-urlencoded)/i;

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
  handler: BoundRoute;
}

function compile(route: RouteDefinition, handler: BoundRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), names, handler };
}

function bodyLimit(route: RouteDefinition): number {
  return Math.max(route.maxBodyBytes, MIN_BODY_BYTES);
}

/**
 * The refusal of a body over the route's cap. A multipart body to an endpoint that takes files is
 * over the cap only because of what it carries, and an oversized file is
 * `400 invalid_request`: it gets `file_too_large` naming the file field, as a single file over
 * 10 MB does. Any other body is `request_too_large` (docs/internals/uploads.md, "Oversized bodies").
 */
function bodyTooLarge(services: Services, route: RouteDefinition, request: IncomingMessage): ApiError {
  const limit = bodyLimit(route);
  const fileField = route.slug ? CATALOGUE[route.slug].fileField : null;
  const multipart = /^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '');
  if (fileField && multipart && !CATALOGUE[route.slug!].requiresJsonEncoding) {
    return new ApiError(
      'file_too_large',
      fileField,
      `The body exceeds the ${limit} bytes this endpoint accepts (at most ${services.config.maxFileBytes} bytes per file); send larger files through POST /v1/uploads.`,
    );
  }
  return new ApiError('request_too_large', null, `The body may be at most ${limit} bytes on this route.`);
}

/** Refuses a declared oversize body before a byte of it is read. */
function refuseDeclaredOversize(services: Services, route: RouteDefinition, request: IncomingMessage): void {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > bodyLimit(route)) throw bodyTooLarge(services, route, request);
}

/**
 * Reads the body up to the route's cap. Past it, reading stops but the stream stays open (no
 * async iterator, whose early exit would destroy the socket), so the refusal can drain it.
 */
function readBody(services: Services, route: RouteDefinition, request: IncomingMessage): Promise<Buffer> {
  const limit = bodyLimit(route);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      request.pause();
      stop();
      reject(bodyTooLarge(services, route, request));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}

function decodePathParameters(match: CompiledRoute, values: string[]): Record<string, string> {
  const parameters = emptyRecord<string>();
  match.names.forEach((name, i) => {
    try {
      parameters[name] = decodeURIComponent(values[i]!);
    } catch {
      // malformed percent-encoding names nothing that can exist
      const code: ErrorCode = match.route.notFound ?? 'resource_not_found';
      throw new ApiError(
        code,
        name,
        `${ERROR_CODES[code].message.replace(/\.$/, '')}: the path segment is not valid percent-encoding.`,
      );
    }
  });
  return parameters;
}

/** The proxy event of a matched route: text bodies as UTF-8, any other base64-encoded. */
function routeEvent(
  request: IncomingMessage,
  url: URL,
  match: CompiledRoute,
  pathParameters: Record<string, string>,
  body: Buffer,
): APIGatewayProxyEvent {
  return toProxyEvent(request, url, {
    resource: match.route.path,
    pathParameters: match.names.length ? pathParameters : null,
    body,
    binary: !TEXT_TYPES.test(request.headers['content-type'] ?? ''),
    requestContext: {
      requestId: randomId('req'),
      httpMethod: request.method ?? 'GET',
      path: url.pathname,
      stage: 'local',
      resourcePath: match.route.path,
    } as APIGatewayProxyEvent['requestContext'],
  });
}

function lambdaContext(route: RouteDefinition): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: route.id,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${route.id}`,
    memoryLimitInMB: '512',
    awsRequestId: randomId('req'),
    logGroupName: `/aws/lambda/${route.id}`,
    logStreamName: 'local',
    // generous: locally `wait=true` may hold 30 s, longer than any AWS route timeout
    getRemainingTimeInMillis: () => 120_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * An answer given before the body was read (a refused key, a declared oversize, a body over the
 * cap) is sent at once, with its length, so the client can read it whole; the rest of the body is
 * then read and dropped, up to a bound, before the answer is ended. A client still sending thus
 * reads the answer instead of a connection reset, even one that asked for `Connection: close`
 * (where ending the answer closes the socket under the unread body); past the bound it is cut off.
 */
function sendError(
  response: ServerResponse,
  error: unknown,
  services: Services,
  route: string,
  startedMs: number,
  logFields: { org_id?: string },
): void {
  const requestId = randomId('req');
  const result = errorResult(error, requestId, services.config.docsUrl, services.log);
  response.writeHead(result.statusCode, {
    ...(result.headers as Record<string, string>),
    'Content-Length': String(Buffer.byteLength(result.body)),
  });
  if (response.req.complete) response.end(result.body);
  else {
    response.write(result.body);
    drainRefusedBody(response);
  }
  // answered by the adapter itself (as API Gateway would), before any route function ran
  services.log.info('request', {
    request_id: requestId,
    ...logFields,
    route,
    status: result.statusCode,
    duration_ms: Math.round(performance.now() - startedMs),
  });
}

/**
 * API Gateway stops waiting for the function at the integration timeout and answers itself; the
 * function runs on (on AWS until its own timeout), so its outcome is dropped here, as there.
 */
async function withinIntegrationTimeout<T>(answer: Promise<T>, timeoutMs: number): Promise<T | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), timeoutMs);
  });
  // a late failure has nobody to answer: it was logged by the wrapper, as on AWS
  answer.catch(() => undefined);
  try {
    return await Promise.race([answer, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The stack's INTEGRATION_TIMEOUT gateway response (lib/gateway-responses.ts): a 504 in the service's envelope. */
function answerIntegrationTimeout(
  response: ServerResponse,
  services: Services,
  route: string,
  startedMs: number,
  logFields: { org_id?: string },
): void {
  const requestId = randomId('req');
  const body = JSON.stringify(
    errorEnvelope('internal_error', requestId, services.config.docsUrl, null, INTEGRATION_TIMEOUT_MESSAGE),
  );
  response.writeHead(504, {
    ...API_SECURITY_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Request-Id': requestId,
  });
  response.end(body);
  services.log.info('request', {
    request_id: requestId,
    ...logFields,
    route,
    status: 504,
    duration_ms: Math.round(performance.now() - startedMs),
  });
}

/** Reads and drops what is left of a refused body, then ends the answer; a client sending past the bound or for too long is cut off. */
function drainRefusedBody(response: ServerResponse): void {
  const request = response.req;
  let drained = 0;
  const finish = (cut: boolean) => {
    clearTimeout(timer);
    request.removeAllListeners('data');
    if (!response.writableEnded) response.end();
    if (cut) response.once('finish', () => request.socket.destroy());
  };
  const timer = setTimeout(() => finish(true), REFUSED_BODY_DRAIN_MS);
  timer.unref();
  request.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > REFUSED_BODY_DRAIN_BYTES) finish(true);
  });
  request.once('end', () => finish(false));
  request.once('close', () => finish(false));
  request.resume();
}

function methodNotAllowed(candidates: CompiledRoute[], request: IncomingMessage, url: URL): RefusalWithHeaders {
  const allowed = [...new Set(candidates.map((c) => c.route.method))].sort();
  return new RefusalWithHeaders(
    new ApiError(
      'method_not_allowed',
      null,
      `${request.method} is not allowed on ${url.pathname}; use ${allowed.join(' or ')}.`,
    ),
    { Allow: allowed.join(', ') },
  );
}

const securityHeaderLines = Object.entries(API_SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/** Requests Node's parser refuses (bare LF, oversized headers) still get the envelope and a Request-Id. */
function answerUnparsable(services: Services, error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : 'malformed_request';
  const status = ERROR_CODES[code].status;
  const requestId = randomId('req');
  const body = JSON.stringify(errorEnvelope(code, requestId, services.config.docsUrl));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${securityHeaderLines}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRequest-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** What the adapter serves beside the routes (CloudFront and S3 on AWS). */
export interface StaticSite {
  files: (pathname: string) => SiteFile | undefined;
  /** where signed object URLs point: the pages' Content-Security-Policy lets them show those images */
  objectOrigins: readonly string[];
  /** the local issuer's sign-in and token endpoints (Cognito's hosted UI on AWS) */
  issuer?: Pick<LocalAuthorizationServer, 'handles' | 'answer'>;
}

/** The most a sign-in form or token request may carry (they are a few hundred bytes). */
const ISSUER_BODY_BYTES = 16 * 1024;

async function answerIssuer(
  issuer: NonNullable<StaticSite['issuer']>,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  objectOrigins: readonly string[],
): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > ISSUER_BODY_BYTES)
      throw new ApiError('request_too_large', null, 'A sign-in request carries at most 16 KB.');
    chunks.push(chunk);
  }
  const answer = await issuer.answer({
    method: request.method ?? 'GET',
    url,
    contentType: request.headers['content-type'],
    body: Buffer.concat(chunks).toString('utf8'),
  });
  response.writeHead(answer.status, {
    ...securityHeadersFor(answer.headers['Content-Type'], objectOrigins),
    ...answer.headers,
  });
  response.end(answer.body);
}

/**
 * A small stand-in for API Gateway (and, for the documentation site and the dashboard, for
 * CloudFront): matches the route table, authenticates on the headers, caps the body at what the
 * route accepts, and invokes the route's handler in-process. Every answer carries the security
 * headers of lambdas/http/security-headers.ts.
 */
export function createApiServer(
  services: Services,
  routes: ReadonlyArray<{ route: RouteDefinition; handler: BoundRoute }>,
  site: StaticSite = { files: () => undefined, objectOrigins: [] },
  integrationTimeoutMs: (route: RouteDefinition) => number = () => DEFAULT_INTEGRATION_TIMEOUT_SECONDS * 1000,
): Server {
  // unknown routes are answered here, as the catch-all's function answers them on AWS: without reading a body
  const compiled = routes
    .filter(({ route }) => !isCatchAll(route))
    .map(({ route, handler }) => compile(route, handler));
  const server = createServer(async (request, response) => {
    const startedMs = performance.now();
    let routeId = 'none';
    const logFields: { org_id?: string } = {};
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      // the documentation site and the dashboard (CloudFront + S3 on AWS); error pages stay with their route
      const file =
        request.method === 'GET' && !url.pathname.startsWith('/docs/errors/')
          ? site.files(url.pathname.replace(/\/+$/, '') || '/')
          : undefined;
      if (file) {
        request.resume();
        response.writeHead(200, {
          ...securityHeadersFor(file.contentType, site.objectOrigins),
          'Content-Type': file.contentType,
          'Cache-Control': 'no-cache',
        });
        response.end(file.body);
        return;
      }
      if (site.issuer?.handles(url.pathname)) {
        await answerIssuer(site.issuer, request, response, url, site.objectOrigins);
        return;
      }
      const candidates = compiled.filter((entry) => entry.pattern.test(url.pathname));
      const chosen = candidates.find((entry) => entry.route.method === request.method);
      if (!chosen)
        throw candidates.length
          ? methodNotAllowed(candidates, request, url)
          : routeNotFound(request.method ?? 'GET', url.pathname);
      routeId = chosen.route.id;
      const pathParameters = decodePathParameters(chosen, chosen.pattern.exec(url.pathname)!.slice(1));
      const caller = await authenticateCaller(services, chosen.route, request.headers.authorization, logFields);
      refuseDeclaredOversize(services, chosen.route, request);
      const body = await readBody(services, chosen.route, request);
      const event = routeEvent(request, url, chosen, pathParameters, body);
      const result = await withinIntegrationTimeout(
        chosen.handler(event, lambdaContext(chosen.route), caller),
        integrationTimeoutMs(chosen.route),
      );
      if (result === 'timed out') {
        answerIntegrationTimeout(response, services, routeId, startedMs, logFields);
        return;
      }
      response.writeHead(result.statusCode, result.headers as Record<string, string>);
      response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
    } catch (error) {
      // the client went away mid-body: nobody is left to answer, and it is no server fault
      if (request.destroyed && (error as NodeJS.ErrnoException).code === 'ECONNRESET') return;
      if (!response.headersSent) sendError(response, error, services, routeId, startedMs, logFields);
      else response.destroy();
    }
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerUnparsable(services, error, socket));
  // an idle keep-alive connection stays open longer than clients keep theirs (Node's fetch: 4 s), so the
  // server never closes one a client is reusing at that moment (Node's 5 s default raced a busy event loop)
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
