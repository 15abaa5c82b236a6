import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Services } from '../domain/ports/services.js';
import { ApiError } from '../domain/kernel/errors.js';
import { randomId } from '../domain/kernel/ids.js';
import type { HttpHandler } from '../http/handler.js';
import { errorResult } from '../http/middleware/error-envelope.js';
import type { RouteDefinition } from '../http/routes/define.js';

/** API Gateway's own body cap is 10 MB; locally the 10 MB rule is per file, so allow a full 30-file batch. */
const MAX_BODY_BYTES = 320 * 1024 * 1024;
const TEXT_TYPES = /^(application\/json|text\/|application\/x-www-form-urlencoded)/i;

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
  handler: HttpHandler;
}

function compile(route: RouteDefinition, handler: HttpHandler): CompiledRoute {
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

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ApiError('request_too_large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Builds the REST (v1) proxy event API Gateway would send for this request. */
function toProxyEvent(request: IncomingMessage, url: URL, match: CompiledRoute, values: string[], body: Buffer): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i]!;
    const value = request.rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const multiValueQuery: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) (multiValueQuery[name] ??= []).push(value);
  const singleQuery = Object.fromEntries(Object.entries(multiValueQuery).map(([name, list]) => [name, list[list.length - 1]!]));
  const pathParameters = Object.fromEntries(match.names.map((name, i) => [name, decodeURIComponent(values[i]!)]));
  const isText = TEXT_TYPES.test(request.headers['content-type'] ?? '');
  return {
    resource: match.route.path,
    path: url.pathname,
    httpMethod: request.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: Object.keys(singleQuery).length ? singleQuery : null,
    multiValueQueryStringParameters: Object.keys(multiValueQuery).length ? multiValueQuery : null,
    pathParameters: match.names.length ? pathParameters : null,
    stageVariables: null,
    requestContext: {
      requestId: randomId('req'),
      httpMethod: request.method ?? 'GET',
      path: url.pathname,
      stage: 'local',
      resourcePath: match.route.path,
    } as APIGatewayProxyEvent['requestContext'],
    body: body.length === 0 ? null : isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !isText,
  };
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

function sendError(response: ServerResponse, error: unknown, services: Services): void {
  const result = errorResult(error, randomId('req'), services.config.docsUrl, services.log);
  response.writeHead(result.statusCode, result.headers as Record<string, string>);
  response.end(result.body);
}

/** A small stand-in for API Gateway: matches the route table and invokes the route's handler in-process. */
export function createApiServer(services: Services, routes: ReadonlyArray<{ route: RouteDefinition; handler: HttpHandler }>): Server {
  const compiled = routes.map(({ route, handler }) => compile(route, handler));
  return createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const candidates = compiled.map((entry) => ({ entry, match: entry.pattern.exec(url.pathname) })).filter((c) => c.match);
      const chosen = candidates.find((c) => c.entry.route.method === request.method);
      if (!chosen) {
        request.resume();
        throw candidates.length
          ? new ApiError('method_not_allowed', null, `${request.method} is not allowed on ${url.pathname}.`)
          : new ApiError('route_not_found', null, `No route ${request.method} ${url.pathname}.`);
      }
      const body = await readBody(request);
      const event = toProxyEvent(request, url, chosen.entry, chosen.match!.slice(1), body);
      const result = await chosen.entry.handler(event, lambdaContext(chosen.entry.route));
      response.writeHead(result.statusCode, result.headers as Record<string, string>);
      response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
    } catch (error) {
      if (!response.headersSent) sendError(response, error, services);
      else response.destroy();
    }
  });
}
