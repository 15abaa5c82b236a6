import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative } from 'node:path';
import { runInNewContext } from 'node:vm';
import { contentTypeOf } from '../dashboard-site.js';
import type { Deployment } from './deployment.js';
import type { RestApiModel } from './rest-api.js';

type ApiHandler = (request: IncomingMessage, response: ServerResponse, pathname: string) => Promise<void>;

interface CloudFrontRequest {
  method: string;
  uri: string;
  querystring: Record<string, { value: string }>;
  headers: Record<string, { value: string }>;
  cookies: Record<string, { value: string }>;
}

type ViewerRequestFunction = (
  event: unknown,
) =>
  | CloudFrontRequest
  | { statusCode: number; statusDescription?: string; headers?: Record<string, { value: string }> };

type Origin =
  /** `readTimeoutMs`: the origin's response timeout (`OriginReadTimeout`, 30 s unless the template says otherwise) */
  | { kind: 'api'; apiId: string; stage: string; originPath: string; readTimeoutMs: number }
  | { kind: 'bucket'; files: Map<string, string> };

/** A header a response headers policy sets: `override` false keeps a value the origin sent. */
interface PolicyHeader {
  name: string;
  value: string;
  override: boolean;
}

interface Behaviour {
  /** null for the default behaviour */
  pattern: RegExp | null;
  origin: Origin;
  methods: string[];
  viewerRequest?: ViewerRequestFunction;
  /** the behaviour's response headers policy */
  responseHeaders: PolicyHeader[];
}

interface ResponseHeadersPolicyConfig {
  SecurityHeadersConfig?: {
    ContentSecurityPolicy?: { ContentSecurityPolicy: string; Override: boolean };
    ContentTypeOptions?: { Override: boolean };
    FrameOptions?: { FrameOption: string; Override: boolean };
    ReferrerPolicy?: { ReferrerPolicy: string; Override: boolean };
    StrictTransportSecurity?: {
      AccessControlMaxAgeSec: number;
      IncludeSubdomains?: boolean;
      Preload?: boolean;
      Override: boolean;
    };
    XSSProtection?: { Protection: boolean; ModeBlock?: boolean; ReportUri?: string; Override: boolean };
  };
  CustomHeadersConfig?: { Items: Array<{ Header: string; Value: string; Override: boolean }> };
}

/** The headers a CloudFront response headers policy adds, as CloudFront writes them. */
function policyHeaders(config: ResponseHeadersPolicyConfig): PolicyHeader[] {
  const security = config.SecurityHeadersConfig ?? {};
  const headers: PolicyHeader[] = [];
  const add = (name: string, value: string, override: boolean) => headers.push({ name, value, override });
  if (security.ContentSecurityPolicy)
    add(
      'Content-Security-Policy',
      security.ContentSecurityPolicy.ContentSecurityPolicy,
      security.ContentSecurityPolicy.Override,
    );
  if (security.ContentTypeOptions) add('X-Content-Type-Options', 'nosniff', security.ContentTypeOptions.Override);
  if (security.FrameOptions) add('X-Frame-Options', security.FrameOptions.FrameOption, security.FrameOptions.Override);
  if (security.ReferrerPolicy)
    add('Referrer-Policy', security.ReferrerPolicy.ReferrerPolicy, security.ReferrerPolicy.Override);
  const hsts = security.StrictTransportSecurity;
  if (hsts)
    add(
      'Strict-Transport-Security',
      `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}${hsts.Preload ? '; preload' : ''}`,
      hsts.Override,
    );
  const xss = security.XSSProtection;
  if (xss)
    add(
      'X-XSS-Protection',
      xss.Protection
        ? `1${xss.ModeBlock ? '; mode=block' : ''}${xss.ReportUri ? `; report=${xss.ReportUri}` : ''}`
        : '0',
      xss.Override,
    );
  for (const item of config.CustomHeadersConfig?.Items ?? []) add(item.Header, item.Value, item.Override);
  return headers;
}

/** Applies a behaviour's response headers policy to every answer that goes out through `response`. */
function withPolicyHeaders(response: ServerResponse, headers: readonly PolicyHeader[]): void {
  if (!headers.length) return;
  const writeHead = response.writeHead.bind(response) as (
    status: number,
    headers?: Record<string, string | string[]>,
  ) => ServerResponse;
  (response as { writeHead: unknown }).writeHead = (status: number, sent: Record<string, string | string[]> = {}) => {
    const merged = { ...sent };
    for (const header of headers) {
      const present = Object.keys(merged).find((name) => name.toLowerCase() === header.name.toLowerCase());
      if (present && !header.override) continue;
      if (present) delete merged[present];
      merged[header.name] = header.value;
    }
    return writeHead(status, merged);
  };
}

export interface DistributionModel {
  behaviours: Behaviour[];
  defaultRootObject?: string;
}

/** CloudFront's path patterns: `*` any characters (slashes included), `?` one. */
function patternRegex(pattern: string): RegExp {
  const withSlash = pattern.startsWith('/') ? pattern : `/${pattern}`;
  return new RegExp(
    `^${withSlash
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
}

/** The files of a directory asset by their key under `prefix` (what BucketDeployment copies into the bucket). */
function stagedFiles(directory: string, prefix: string, into: Map<string, string>): void {
  if (!existsSync(directory) || !statSync(directory).isDirectory()) return;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else into.set(`${prefix}${relative(directory, path).split('\\').join('/')}`, path);
    }
  };
  walk(directory);
}

/**
 * The distribution whose behaviours front a REST API of the assembly, if there is one: its
 * behaviours in order, their viewer-request functions (the template's own code), and for S3
 * origins the objects the template's BucketDeployments put into the bucket, read from the staged
 * assets.
 */
export function readDistribution(deployment: Deployment, restApis: readonly RestApiModel[]): DistributionModel | null {
  const { assembly } = deployment;
  const functions = new Map<string, ViewerRequestFunction>();
  for (const target of assembly.resources('AWS::CloudFront::Function')) {
    const code = deployment.resolveString(target.resource.Properties?.FunctionCode, target.stack);
    const handler = runInNewContext(`${code}\n;handler`, {}) as ViewerRequestFunction;
    functions.set(deployment.physicalOf(target).attributes.FunctionARN!, handler);
  }
  const policies = new Map<string, PolicyHeader[]>();
  for (const target of assembly.resources('AWS::CloudFront::ResponseHeadersPolicy')) {
    const config = (
      deployment.resolve(target.resource.Properties ?? {}, target.stack) as {
        ResponseHeadersPolicyConfig: ResponseHeadersPolicyConfig;
      }
    ).ResponseHeadersPolicyConfig;
    // the stand-ins' addresses stand for the public ones the policy names (the S3 hosts of signed URLs)
    policies.set(
      deployment.physicalOf(target).ref,
      policyHeaders(JSON.parse(deployment.localize(JSON.stringify(config)))),
    );
  }
  const bucketFiles = new Map<string, Map<string, string>>();
  for (const target of assembly.resources('Custom::CDKBucketDeployment')) {
    const p = deployment.resolve(target.resource.Properties ?? {}, target.stack) as {
      SourceObjectKeys?: string[];
      DestinationBucketName: string;
      DestinationBucketKeyPrefix?: string;
    };
    const files = bucketFiles.get(p.DestinationBucketName) ?? new Map<string, string>();
    bucketFiles.set(p.DestinationBucketName, files);
    for (const key of p.SourceObjectKeys ?? [])
      stagedFiles(assembly.assetPath(key), p.DestinationBucketKeyPrefix ?? '', files);
  }
  for (const target of assembly.resources('AWS::CloudFront::Distribution')) {
    const config = (
      deployment.resolve(target.resource.Properties ?? {}, target.stack) as {
        DistributionConfig: Record<string, unknown>;
      }
    ).DistributionConfig;
    const origins = new Map<string, Origin>();
    type OriginConfig = {
      Id: string;
      DomainName: string;
      OriginPath?: string;
      CustomOriginConfig?: { OriginReadTimeout?: number };
    };
    for (const origin of (config.Origins as OriginConfig[]) ?? []) {
      const api = restApis.find((candidate) => origin.DomainName.startsWith(`${candidate.id}.execute-api.`));
      if (api)
        origins.set(origin.Id, {
          kind: 'api',
          apiId: api.id,
          stage: api.stage,
          originPath: origin.OriginPath ?? '',
          readTimeoutMs: (origin.CustomOriginConfig?.OriginReadTimeout ?? DEFAULT_ORIGIN_READ_TIMEOUT_SECONDS) * 1000,
        });
      const bucket = [...bucketFiles.keys()].find((name) => origin.DomainName.startsWith(`${name}.s3.`));
      origins.set(
        origin.Id,
        origins.get(origin.Id) ?? { kind: 'bucket', files: bucket ? bucketFiles.get(bucket)! : new Map() },
      );
    }
    type BehaviourConfig = {
      PathPattern?: string;
      TargetOriginId: string;
      AllowedMethods?: string[];
      FunctionAssociations?: Array<{ EventType: string; FunctionARN: string }>;
      ResponseHeadersPolicyId?: string;
    };
    const behaviour = (entry: BehaviourConfig): Behaviour => {
      const association = entry.FunctionAssociations?.find((candidate) => candidate.EventType === 'viewer-request');
      return {
        pattern: entry.PathPattern ? patternRegex(entry.PathPattern) : null,
        origin: origins.get(entry.TargetOriginId)!,
        methods: entry.AllowedMethods ?? ['GET', 'HEAD'],
        // a managed policy (an id, not a resource of the template) is not applied locally
        responseHeaders: (entry.ResponseHeadersPolicyId && policies.get(entry.ResponseHeadersPolicyId)) || [],
        ...(association ? { viewerRequest: functions.get(association.FunctionARN)! } : {}),
      };
    };
    const behaviours = [
      ...((config.CacheBehaviors as BehaviourConfig[] | undefined) ?? []).map(behaviour),
      behaviour(config.DefaultCacheBehavior as BehaviourConfig),
    ];
    if (!behaviours.some((candidate) => candidate.origin.kind === 'api')) continue;
    return {
      behaviours,
      ...(typeof config.DefaultRootObject === 'string' ? { defaultRootObject: config.DefaultRootObject } : {}),
    };
  }
  return null;
}

/** CloudFront's origin response timeout when a distribution does not set one. */
const DEFAULT_ORIGIN_READ_TIMEOUT_SECONDS = 30;

/** CloudFront's own page for an origin that did not answer in time. */
const ORIGIN_TIMEOUT_PAGE =
  '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">\n' +
  '<HTML><HEAD><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=iso-8859-1">\n' +
  '<TITLE>ERROR: The request could not be satisfied</TITLE>\n</HEAD><BODY>\n<H1>504 Gateway Timeout ERROR</H1>\n' +
  '<H2>The request could not be satisfied.</H2>\n<HR noshade size="1px">\n' +
  "We can't connect to the server for this app or website at this time.\n</BODY></HTML>";

/**
 * CloudFront waits for the origin's answer up to the origin's read timeout, then drops the
 * connection to it and answers 504 with its own page: what the origin says afterwards goes nowhere.
 */
async function withinOriginReadTimeout(
  response: ServerResponse,
  timeoutMs: number,
  forward: () => Promise<void>,
): Promise<void> {
  const timer = setTimeout(() => {
    if (response.headersSent) return;
    response
      .writeHead(504, { 'Content-Type': 'text/html', 'X-Cache': 'Error from cloudfront' })
      .end(ORIGIN_TIMEOUT_PAGE);
    // the origin's late answer is written to a connection CloudFront has closed
    response.writeHead = (() => response) as typeof response.writeHead;
    response.write = (() => true) as typeof response.write;
    response.end = (() => response) as typeof response.end;
  }, timeoutMs);
  try {
    await forward();
  } finally {
    clearTimeout(timer);
  }
}

function accessDenied(response: ServerResponse): void {
  response.writeHead(403, { 'Content-Type': 'application/xml' });
  response.end(
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
  );
}

/**
 * Plays the CloudFront distribution in front of the service: the first behaviour whose path
 * pattern matches (else the default) picks the origin; its viewer-request function runs first
 * (it may rewrite the URI or answer itself); the API origin gets the request under its origin
 * path (the stage), a bucket origin answers from the deployed files (a missing key is S3's 403).
 */
export function distributionHandler(
  distribution: DistributionModel,
  apis: ReadonlyMap<string, ApiHandler>,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    let uri =
      url.pathname === '/' && distribution.defaultRootObject ? `/${distribution.defaultRootObject}` : url.pathname;
    const chosen = distribution.behaviours.find(
      (candidate) => candidate.pattern === null || candidate.pattern.test(uri),
    )!;
    withPolicyHeaders(response, chosen.responseHeaders);
    const method = request.method ?? 'GET';
    if (!chosen.methods.includes(method)) {
      request.resume();
      response
        .writeHead(403, { 'Content-Type': 'text/plain' })
        .end('This distribution is not configured to allow the HTTP request method that was used for this request.');
      return;
    }
    if (chosen.viewerRequest) {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, { value: String(value) }]),
      );
      const querystring = Object.fromEntries([...url.searchParams].map(([name, value]) => [name, { value }]));
      const outcome = chosen.viewerRequest({
        version: '1.0',
        context: { eventType: 'viewer-request' },
        viewer: { ip: request.socket.remoteAddress ?? '127.0.0.1' },
        request: { method, uri, querystring, headers, cookies: {} },
      });
      if ('statusCode' in outcome) {
        request.resume();
        response
          .writeHead(
            outcome.statusCode,
            Object.fromEntries(Object.entries(outcome.headers ?? {}).map(([name, { value }]) => [name, value])),
          )
          .end();
        return;
      }
      uri = outcome.uri;
    }
    const origin = chosen.origin;
    if (origin.kind === 'api') {
      const path = `${origin.originPath}${uri}`;
      const stagePrefix = `/${origin.stage}`;
      if (!path.startsWith(`${stagePrefix}/`) && path !== stagePrefix) {
        request.resume();
        response.writeHead(403, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'Forbidden' }));
        return;
      }
      await withinOriginReadTimeout(response, origin.readTimeoutMs, () =>
        apis.get(origin.apiId)!(request, response, path.slice(stagePrefix.length) || '/'),
      );
      return;
    }
    request.resume();
    const file = origin.files.get(decodeURIComponent(uri.slice(1)));
    if (!file || (method !== 'GET' && method !== 'HEAD')) {
      accessDenied(response);
      return;
    }
    response.writeHead(200, { 'Content-Type': contentTypeOf(file) });
    response.end(method === 'HEAD' ? undefined : readFileSync(file));
  };
}
