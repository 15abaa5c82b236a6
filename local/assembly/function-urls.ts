import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Log } from '../../lambdas/domain/ports/services.js';
import { freePort } from '../stand-ins/free-port.js';
import type { Deployment } from './deployment.js';
import type { LambdaHost } from './lambda-host.js';

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/i;

export interface FunctionUrls {
  stop(): Promise<void>;
}

interface FunctionUrlAnswer {
  statusCode?: number;
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
  cookies?: string[];
}

/**
 * Lambda function URLs: each `AWS::Lambda::Url` of the assembly gets a loopback port of its own
 * (recorded as its `FunctionUrl` before any environment is resolved), and each request becomes
 * the payload-2.0 event Lambda sends, its answer the HTTP response. Listening happens before the
 * functions exist, so `lambdas` is read when a request arrives.
 */
export async function startFunctionUrls(
  deployment: Deployment,
  lambdas: () => LambdaHost,
  log: Log,
): Promise<FunctionUrls> {
  const servers: Server[] = [];
  for (const target of deployment.assembly.resources('AWS::Lambda::Url')) {
    const p = deployment.resolve(target.resource.Properties ?? {}, target.stack) as {
      TargetFunctionArn: string;
      AuthType?: string;
    };
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const urlId = `local${port}`;
    const server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      const parsed = new URL(request.url ?? '/', url);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
      const binary = body.length > 0 && !TEXT_TYPES.test(headers['content-type'] ?? '');
      const now = new Date();
      const event = {
        version: '2.0',
        routeKey: '$default',
        rawPath: parsed.pathname,
        rawQueryString: parsed.search.slice(1),
        headers,
        ...(parsed.search ? { queryStringParameters: Object.fromEntries(parsed.searchParams) } : {}),
        requestContext: {
          accountId: 'anonymous',
          apiId: urlId,
          domainName: `${urlId}.lambda-url.${deployment.region}.on.aws`,
          domainPrefix: urlId,
          http: {
            method: request.method ?? 'GET',
            path: parsed.pathname,
            protocol: `HTTP/${request.httpVersion}`,
            sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
            userAgent: headers['user-agent'] ?? '',
          },
          requestId: randomUUID(),
          routeKey: '$default',
          stage: '$default',
          time: now.toUTCString(),
          timeEpoch: now.getTime(),
        },
        ...(body.length ? { body: binary ? body.toString('base64') : body.toString('utf8') } : {}),
        isBase64Encoded: binary,
      };
      const outcome = await lambdas().invoke(p.TargetFunctionArn, event);
      if (!outcome.ok) {
        log.warn('function URL invocation failed', { function: p.TargetFunctionArn, ...outcome.error });
        response.writeHead(502, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ Message: 'Internal Server Error' }));
        return;
      }
      // an answer without a statusCode is the body itself, as JSON (Lambda's inference of the response)
      const answer = outcome.payload as FunctionUrlAnswer | null;
      const shaped = answer && typeof answer === 'object' && typeof answer.statusCode === 'number';
      const status = shaped ? answer.statusCode! : 200;
      const responseHeaders: Record<string, string | string[]> = shaped
        ? { ...answer.headers }
        : { 'Content-Type': 'application/json' };
      if (shaped && answer.cookies?.length) responseHeaders['Set-Cookie'] = answer.cookies;
      const text = shaped ? (answer.body ?? '') : JSON.stringify(outcome.payload);
      response.writeHead(status, responseHeaders);
      response.end(shaped && answer.isBase64Encoded ? Buffer.from(text, 'base64') : text);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    servers.push(server);
    deployment.record(target, { ref: url, attributes: { FunctionUrl: url, FunctionArn: p.TargetFunctionArn } });
  }
  return {
    stop: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}
