import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * An AWS service spoken in the JSON protocol (`X-Amz-Target: <prefix>.<Operation>`, a JSON body
 * in and out), as the SDK clients call it when `AWS_ENDPOINT_URL_<SERVICE>` points here.
 */
export interface JsonService {
  /** the target prefix, e.g. `AWSStepFunctions`, `secretsmanager` */
  targetPrefix: string;
  handle(operation: string, input: Record<string, unknown>): Promise<unknown>;
}

/** An error the SDK turns into its named exception (`TaskDoesNotExist`, `ResourceNotFoundException`, …). */
export class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface AwsJsonServices {
  endpoint: string;
  stop(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0', ...headers });
  response.end(JSON.stringify(body ?? {}));
}

/**
 * One loopback HTTP server for the stand-ins the SDK reaches by JSON protocol (Step Functions,
 * Secrets Manager), plus plain JSON documents by path (a JWKS). Signatures are not checked.
 */
export async function startAwsJsonServices(
  services: readonly JsonService[],
  documents: Record<string, () => unknown> = {},
): Promise<AwsJsonServices> {
  const server = createServer(async (request, response) => {
    try {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const document = documents[path];
      if (request.method === 'GET' && document) {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(document()));
        return;
      }
      const target = String(request.headers['x-amz-target'] ?? '');
      const at = target.lastIndexOf('.');
      const service = services.find((candidate) => candidate.targetPrefix === target.slice(0, at));
      if (!service)
        throw new ServiceError(
          'UnknownOperationException',
          `no local stand-in serves ${target || `${request.method} ${path}`}`,
        );
      send(response, 200, await service.handle(target.slice(at + 1), await readJson(request)));
    } catch (error) {
      const failure = error instanceof ServiceError ? error : new ServiceError('InternalFailure', String(error), 500);
      send(
        response,
        failure.status,
        { __type: failure.type, message: failure.message },
        { 'x-amzn-errortype': failure.type },
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
