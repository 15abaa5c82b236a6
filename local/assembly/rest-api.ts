import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { toProxyEvent } from '../proxy-event.js';
import type { StackResource } from './cloud-assembly.js';
import type { Deployment } from './deployment.js';
import type { LambdaHost } from './lambda-host.js';

/** API Gateway's own limits: the payload it accepts, the one Lambda accepts, and the default integration timeout. */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
const MAX_INVOKE_PAYLOAD_BYTES = 6 * 1024 * 1024;
const DEFAULT_INTEGRATION_TIMEOUT_MS = 29_000;

/** What API Gateway answers itself when no gateway response of the template reshapes it. */
const DEFAULT_RESPONSES: Record<string, { status: number; message: string }> = {
  MISSING_AUTHENTICATION_TOKEN: { status: 403, message: 'Missing Authentication Token' },
  INTEGRATION_TIMEOUT: { status: 504, message: 'Endpoint request timed out' },
  INTEGRATION_FAILURE: { status: 504, message: 'Internal server error' },
  THROTTLED: { status: 429, message: 'Too Many Requests' },
  DEFAULT_4XX: { status: 400, message: 'Bad Request' },
  DEFAULT_5XX: { status: 502, message: 'Internal server error' },
};

type ApiMethod =
  /** a Lambda proxy integration: its function (resolved from the integration URI) */
  | { kind: 'lambda'; functionArn: string; timeoutMs: number }
  /** a MOCK integration (CORS preflights): its first integration response, static headers only */
  | { kind: 'mock'; status: number; headers: Record<string, string> };

interface IntegrationProperties {
  Type?: string;
  Uri?: string;
  TimeoutInMillis?: number;
  IntegrationResponses?: Array<{ StatusCode: string; ResponseParameters?: Record<string, string> }>;
}

/** `'static'` values of `<prefix><header name>` mapping keys (API Gateway's quoting of literals). */
function staticHeaders(parameters: Record<string, string> | undefined, prefix: RegExp): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parameters ?? {})) {
    const header = prefix.exec(name)?.[1];
    if (header && /^'.*'$/.test(value)) headers[header] = value.slice(1, -1);
  }
  return headers;
}

function methodOf(logicalId: string, integration: IntegrationProperties | undefined): ApiMethod {
  if (integration?.Type === 'MOCK') {
    const response = integration.IntegrationResponses?.[0];
    return {
      kind: 'mock',
      status: Number(response?.StatusCode ?? 200),
      headers: staticHeaders(response?.ResponseParameters, /^method\.response\.header\.(.+)$/),
    };
  }
  const functionArn = /:lambda:path\/[^/]+\/functions\/(.+)\/invocations$/.exec(integration?.Uri ?? '')?.[1];
  if (integration?.Type !== 'AWS_PROXY' || !functionArn)
    throw new Error(`${logicalId}: only Lambda proxy (AWS_PROXY) and MOCK integrations are run locally`);
  return { kind: 'lambda', functionArn, timeoutMs: integration.TimeoutInMillis ?? DEFAULT_INTEGRATION_TIMEOUT_MS };
}

interface ApiResource {
  id: string;
  pathPart: string;
  /** the path template, e.g. `/v1/jobs/{id}` */
  path: string;
  children: ApiResource[];
  methods: Map<string, ApiMethod>;
}

interface GatewayResponse {
  status?: number;
  /** header → its mapping: a `'static'` value, `context.<variable>` or `method.request.header.<name>` */
  headers: Record<string, string>;
  template?: string;
}

/** A gateway response's header mappings, each a source the stand-in fills as API Gateway does (others are refused). */
function gatewayHeaders(logicalId: string, parameters: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parameters ?? {})) {
    const header = /^gatewayresponse\.header\.(.+)$/.exec(name)?.[1];
    if (!header) continue;
    if (!/^'.*'$|^context\.[\w.]+$|^method\.request\.header\.[\w-]+$/.test(value))
      throw new Error(`${logicalId}: header ${header} maps ${value}, which the local API Gateway does not fill`);
    headers[header] = value;
  }
  return headers;
}

/** The value of a gateway response header mapping for one request. */
function mappedHeader(
  mapping: string,
  variables: Record<string, string>,
  request: IncomingMessage,
): string | undefined {
  if (/^'.*'$/.test(mapping)) return mapping.slice(1, -1);
  const variable = /^context\.(.+)$/.exec(mapping)?.[1];
  if (variable) return variables[variable];
  const header = request.headers[/^method\.request\.header\.(.+)$/.exec(mapping)![1]!.toLowerCase()];
  return Array.isArray(header) ? header.join(',') : header;
}

/** A REST API of the assembly: its resource tree, methods, binary media types, gateway responses and stage. */
export interface RestApiModel {
  id: string;
  name: string;
  stage: string;
  binaryMediaTypes: string[];
  root: ApiResource;
  gatewayResponses: Map<string, GatewayResponse>;
  /** the stage's throttling: steady requests per second and burst */
  throttling?: { rate: number; burst: number };
}

/** Every REST API of the assembly, read from its resources, methods, gateway responses and stage. */
export function readRestApis(deployment: Deployment): RestApiModel[] {
  const { assembly } = deployment;
  const props = (target: StackResource) =>
    deployment.resolve(target.resource.Properties ?? {}, target.stack) as Record<string, unknown>;
  return assembly.resources('AWS::ApiGateway::RestApi').map((api) => {
    const properties = props(api);
    const id = deployment.physicalOf(api).ref;
    const root: ApiResource = {
      id: deployment.physicalOf(api).attributes.RootResourceId!,
      pathPart: '',
      path: '/',
      children: [],
      methods: new Map(),
    };
    const belongs = (target: StackResource) => props(target).RestApiId === id;
    const nodes = new Map<string, ApiResource>([[root.id, root]]);
    const pending = assembly.resources('AWS::ApiGateway::Resource').filter(belongs);
    // parents come in any order: attach what can be attached until nothing changes
    for (let progress = true; progress; ) {
      progress = false;
      for (const target of [...pending]) {
        const { ParentId, PathPart } = props(target) as { ParentId: string; PathPart: string };
        const parent = nodes.get(ParentId);
        if (!parent) continue;
        const node: ApiResource = {
          id: deployment.physicalOf(target).ref,
          pathPart: PathPart,
          path: `${parent.path.replace(/\/$/, '')}/${PathPart}`,
          children: [],
          methods: new Map(),
        };
        parent.children.push(node);
        nodes.set(node.id, node);
        pending.splice(pending.indexOf(target), 1);
        progress = true;
      }
    }
    for (const target of assembly.resources('AWS::ApiGateway::Method').filter(belongs)) {
      const method = props(target) as { HttpMethod: string; ResourceId: string; Integration?: IntegrationProperties };
      const node = nodes.get(method.ResourceId);
      if (!node) throw new Error(`${target.logicalId}: no resource ${method.ResourceId} in its API`);
      node.methods.set(method.HttpMethod, methodOf(target.logicalId, method.Integration));
    }
    const gatewayResponses = new Map<string, GatewayResponse>();
    for (const target of assembly.resources('AWS::ApiGateway::GatewayResponse').filter(belongs)) {
      const response = props(target) as {
        ResponseType: string;
        StatusCode?: string;
        ResponseParameters?: Record<string, string>;
        ResponseTemplates?: Record<string, string>;
      };
      gatewayResponses.set(response.ResponseType, {
        ...(response.StatusCode ? { status: Number(response.StatusCode) } : {}),
        headers: gatewayHeaders(target.logicalId, response.ResponseParameters),
        ...(response.ResponseTemplates?.['application/json']
          ? { template: response.ResponseTemplates['application/json'] }
          : {}),
      });
    }
    const stage = assembly.resources('AWS::ApiGateway::Stage').find(belongs);
    const stageProps = stage
      ? (props(stage) as {
          StageName: string;
          MethodSettings?: Array<{
            ResourcePath?: string;
            ThrottlingRateLimit?: number;
            ThrottlingBurstLimit?: number;
          }>;
        })
      : undefined;
    const throttling = stageProps?.MethodSettings?.find(
      (setting) => setting.ResourcePath === '/*' && setting.ThrottlingRateLimit !== undefined,
    );
    return {
      id,
      name: String(properties.Name ?? api.logicalId),
      stage: stageProps?.StageName ?? 'prod',
      binaryMediaTypes: ((properties.BinaryMediaTypes as string[] | undefined) ?? []).map((type) =>
        type.replace(/~1/g, '/'),
      ),
      root,
      gatewayResponses,
      ...(throttling
        ? {
            throttling: {
              rate: throttling.ThrottlingRateLimit!,
              burst: throttling.ThrottlingBurstLimit ?? throttling.ThrottlingRateLimit!,
            },
          }
        : {}),
    };
  });
}

/** API Gateway's resource matching: a literal segment before a `{param}`, and `{name+}` takes the rest. */
function matchResource(
  root: ApiResource,
  pathname: string,
): { resource: ApiResource; parameters: Record<string, string> } | null {
  const segments = pathname.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  const walk = (
    node: ApiResource,
    index: number,
    parameters: Record<string, string>,
  ): { resource: ApiResource; parameters: Record<string, string> } | null => {
    if (index === segments.length) return { resource: node, parameters };
    const segment = segments[index]!;
    const literal = node.children.find((child) => child.pathPart === segment);
    const viaLiteral = literal && walk(literal, index + 1, parameters);
    if (viaLiteral) return viaLiteral;
    for (const child of node.children) {
      const name = /^\{(\w+)\}$/.exec(child.pathPart)?.[1];
      if (name) {
        const found = walk(child, index + 1, { ...parameters, [name]: decodeSegment(segment) });
        if (found) return found;
      }
      const greedy = /^\{(\w+)\+\}$/.exec(child.pathPart)?.[1];
      if (greedy)
        return {
          resource: child,
          parameters: { ...parameters, [greedy]: segments.slice(index).map(decodeSegment).join('/') },
        };
    }
    return null;
  };
  return walk(root, 0, {});
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `binaryMediaTypes` match on the media type, with `type/*` and `*\/*` wildcards. */
function isBinary(binaryMediaTypes: readonly string[], contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!type) return false;
  return binaryMediaTypes.some((pattern) => {
    const wanted = pattern.toLowerCase();
    return wanted === type || wanted === '*/*' || (wanted.endsWith('/*') && type.startsWith(wanted.slice(0, -1)));
  });
}

/** A token bucket per stage: API Gateway's stage throttling. */
function throttle(limits: RestApiModel['throttling']): () => boolean {
  if (!limits) return () => true;
  let tokens = limits.burst;
  let last = Date.now();
  return () => {
    const now = Date.now();
    tokens = Math.min(limits.burst, tokens + ((now - last) / 1000) * limits.rate);
    last = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

class GatewayAnswer extends Error {
  constructor(
    readonly responseType: string,
    readonly bare?: { status: number; message: string },
  ) {
    super(responseType);
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_REQUEST_BYTES)
    throw new GatewayAnswer('REQUEST_TOO_LARGE', { status: 413, message: 'Request Too Long' });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES)
      throw new GatewayAnswer('REQUEST_TOO_LARGE', { status: 413, message: 'Request Too Long' });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function requestTime(date: Date): string {
  const [, day, month, year, time] = /^\w+, (\d+) (\w+) (\d+) ([\d:]+)/.exec(date.toUTCString())!;
  return `${day}/${month}/${year}:${time} +0000`;
}

function isProxyResult(value: unknown): value is APIGatewayProxyResult {
  if (!value || typeof value !== 'object') return false;
  const result = value as Partial<APIGatewayProxyResult>;
  return Number.isInteger(result.statusCode) && (result.body === undefined || typeof result.body === 'string');
}

/**
 * Plays API Gateway for one REST API of the assembly: matches the request against the template's
 * resource tree and methods, builds the proxy event (binary bodies base64-encoded per the API's
 * `binaryMediaTypes`), invokes the method's function with the integration timeout, and answers
 * what it returns; its own errors (a method the matched resource lacks, throttled, timed out, a
 * failed function) come from the template's gateway responses, their header mappings filled in.
 * An unknown path reaches the template's greedy `{proxy+}` method where there is one (the catch-all).
 */
export function restApiHandler(
  api: RestApiModel,
  lambdas: LambdaHost,
  deployment: Deployment,
): (request: IncomingMessage, response: ServerResponse, pathname: string) => Promise<void> {
  const admit = throttle(api.throttling);
  const domainName = `${api.id}.execute-api.${deployment.region}.amazonaws.com`;

  const answerGateway = (
    request: IncomingMessage,
    response: ServerResponse,
    answer: GatewayAnswer,
    requestId: string,
    context: Record<string, string>,
  ) => {
    if (answer.bare) {
      response.writeHead(answer.bare.status, { 'Content-Type': 'application/json', 'x-amzn-RequestId': requestId });
      response.end(JSON.stringify({ message: answer.bare.message }));
      return;
    }
    const fallbackType = (DEFAULT_RESPONSES[answer.responseType]?.status ?? 500) >= 500 ? 'DEFAULT_5XX' : 'DEFAULT_4XX';
    const configured = api.gatewayResponses.get(answer.responseType) ?? api.gatewayResponses.get(fallbackType);
    const defaults = DEFAULT_RESPONSES[answer.responseType] ?? DEFAULT_RESPONSES[fallbackType]!;
    const variables: Record<string, string> = {
      requestId,
      'error.message': defaults.message,
      'error.messageString': JSON.stringify(defaults.message),
      'error.responseType': answer.responseType,
      ...context,
    };
    const body = configured?.template
      ? deployment
          .localize(configured.template)
          .replace(/\$context\.([\w.]+)/g, (whole, name: string) => variables[name] ?? whole)
      : JSON.stringify({ message: defaults.message });
    const headers: Record<string, string> = {};
    for (const [name, mapping] of Object.entries(configured?.headers ?? {})) {
      const value = mappedHeader(mapping, variables, request);
      if (value !== undefined) headers[name] = value;
    }
    response.writeHead(configured?.status ?? defaults.status, {
      'Content-Type': 'application/json',
      ...headers,
      'x-amzn-RequestId': requestId,
      'x-amzn-ErrorType': answer.responseType,
    });
    response.end(body);
  };

  return async (request, response, pathname) => {
    const requestId = randomUUID();
    const now = new Date();
    const url = new URL(request.url ?? '/', 'http://localhost');
    url.pathname = pathname;
    const context = { httpMethod: request.method ?? 'GET', stage: api.stage, path: `/${api.stage}${pathname}` };
    try {
      if (!admit()) throw new GatewayAnswer('THROTTLED');
      const matched = matchResource(api.root, pathname);
      const method =
        matched && (matched.resource.methods.get(request.method ?? 'GET') ?? matched.resource.methods.get('ANY'));
      if (!matched || !method) throw new GatewayAnswer('MISSING_AUTHENTICATION_TOKEN');
      if (method.kind === 'mock') {
        request.resume();
        response.writeHead(method.status, { ...method.headers, 'x-amzn-RequestId': requestId }).end();
        return;
      }
      const body = await readBody(request);
      const event: APIGatewayProxyEvent = toProxyEvent(request, url, {
        resource: matched.resource.path,
        pathParameters: matched.parameters,
        body,
        binary: isBinary(api.binaryMediaTypes, request.headers['content-type']),
        addedHeaders: {
          'X-Amzn-Trace-Id': `Root=1-${Math.floor(now.getTime() / 1000).toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`,
          'X-Forwarded-For': request.socket.remoteAddress ?? '127.0.0.1',
          'X-Forwarded-Port': String(request.socket.localPort ?? 443),
          'X-Forwarded-Proto': 'https',
        },
        requestContext: {
          accountId: '000000000000',
          apiId: api.id,
          authorizer: null,
          domainName,
          domainPrefix: api.id,
          extendedRequestId: randomUUID(),
          httpMethod: context.httpMethod,
          identity: {
            accessKey: null,
            accountId: null,
            apiKey: null,
            apiKeyId: null,
            caller: null,
            clientCert: null,
            cognitoAuthenticationProvider: null,
            cognitoAuthenticationType: null,
            cognitoIdentityId: null,
            cognitoIdentityPoolId: null,
            principalOrgId: null,
            sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
            user: null,
            userAgent: request.headers['user-agent'] ?? null,
            userArn: null,
          },
          path: context.path,
          protocol: `HTTP/${request.httpVersion}`,
          requestId,
          requestTime: requestTime(now),
          requestTimeEpoch: now.getTime(),
          resourceId: matched.resource.id,
          resourcePath: matched.resource.path,
          stage: api.stage,
        },
      });
      // Lambda's synchronous payload limit, base64 included (docs/internals/deploy.md)
      if (Buffer.byteLength(JSON.stringify(event)) > MAX_INVOKE_PAYLOAD_BYTES)
        throw new GatewayAnswer('REQUEST_TOO_LARGE', { status: 413, message: 'Request Too Long' });
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), method.timeoutMs);
      });
      const outcome = await Promise.race([lambdas.invoke(method.functionArn, event), timedOut]).finally(() =>
        clearTimeout(timer),
      );
      // the function may still finish, as on AWS; nobody reads its answer
      if (outcome === 'timeout') throw new GatewayAnswer('INTEGRATION_TIMEOUT');
      if (!outcome.ok || !isProxyResult(outcome.payload)) throw new GatewayAnswer('DEFAULT_5XX');
      const result = outcome.payload;
      const headers: Record<string, string | string[]> = { 'x-amzn-RequestId': requestId };
      for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
      for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
      const decode =
        result.isBase64Encoded &&
        (isBinary(api.binaryMediaTypes, request.headers.accept) ||
          isBinary(api.binaryMediaTypes, String(result.headers?.['Content-Type'] ?? '')));
      response.writeHead(result.statusCode, headers);
      response.end(decode ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
    } catch (error) {
      if (!(error instanceof GatewayAnswer)) throw error;
      request.resume();
      answerGateway(request, response, error, requestId, context);
    }
  };
}
