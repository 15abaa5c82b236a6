import { createServer, type Server } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudAssembly } from '../../../../local/assembly/cloud-assembly.js';
import { Deployment } from '../../../../local/assembly/deployment.js';
import type { InvokeOutcome, LambdaHost } from '../../../../local/assembly/lambda-host.js';
import { readRestApis, restApiHandler } from '../../../../local/assembly/rest-api.js';
import { writeCloudAssembly } from '../../../support/cloud-assembly.js';

/** A REST API as CDK synthesises one: resources, Lambda proxy methods, a MOCK preflight, gateway responses, a throttled stage. */
const proxy = (fn: string, extra: object = {}) => ({
  Type: 'AWS_PROXY',
  IntegrationHttpMethod: 'POST',
  Uri: {
    'Fn::Join': [
      '',
      [
        'arn:',
        { Ref: 'AWS::Partition' },
        ':apigateway:us-east-1:lambda:path/2015-03-31/functions/',
        { 'Fn::GetAtt': [fn, 'Arn'] },
        '/invocations',
      ],
    ],
  },
  ...extra,
});
const resource = (parent: unknown, part: string) => ({
  Type: 'AWS::ApiGateway::Resource',
  Properties: { ParentId: parent, PathPart: part, RestApiId: { Ref: 'Api' } },
});
const method = (resourceId: string, httpMethod: string, integration: object) => ({
  Type: 'AWS::ApiGateway::Method',
  Properties: {
    HttpMethod: httpMethod,
    ResourceId: { Ref: resourceId },
    RestApiId: { Ref: 'Api' },
    Integration: integration,
  },
});
const written = writeCloudAssembly({
  main: {
    Resources: {
      Api: {
        Type: 'AWS::ApiGateway::RestApi',
        Properties: { Name: 'shop', BinaryMediaTypes: ['multipart/form-data'] },
      },
      V1: resource({ 'Fn::GetAtt': ['Api', 'RootResourceId'] }, 'v1'),
      Jobs: resource({ Ref: 'V1' }, 'jobs'),
      JobId: resource({ Ref: 'Jobs' }, '{id}'),
      Latest: resource({ Ref: 'Jobs' }, 'latest'),
      Files: resource({ Ref: 'V1' }, 'files'),
      FilePath: resource({ Ref: 'Files' }, '{path+}'),
      CatchAllPath: resource({ 'Fn::GetAtt': ['Api', 'RootResourceId'] }, '{proxy+}'),
      Echo: { Type: 'AWS::Lambda::Function', Properties: {} },
      CatchAll: { Type: 'AWS::Lambda::Function', Properties: {} },
      Slow: { Type: 'AWS::Lambda::Function', Properties: {} },
      GetJob: method('JobId', 'GET', proxy('Echo')),
      GetLatest: method('Latest', 'GET', proxy('Echo')),
      PostJobs: method('Jobs', 'POST', proxy('Echo')),
      AnyFile: method('FilePath', 'ANY', proxy('Slow', { TimeoutInMillis: 300 })),
      AnyRoot: {
        Type: 'AWS::ApiGateway::Method',
        Properties: {
          HttpMethod: 'ANY',
          ResourceId: { 'Fn::GetAtt': ['Api', 'RootResourceId'] },
          RestApiId: { Ref: 'Api' },
          Integration: proxy('CatchAll'),
        },
      },
      AnyPath: method('CatchAllPath', 'ANY', proxy('CatchAll')),
      Preflight: method('Jobs', 'OPTIONS', {
        Type: 'MOCK',
        IntegrationResponses: [
          { StatusCode: '204', ResponseParameters: { 'method.response.header.Access-Control-Allow-Origin': "'*'" } },
        ],
      }),
      NotFound: {
        Type: 'AWS::ApiGateway::GatewayResponse',
        Properties: {
          RestApiId: { Ref: 'Api' },
          ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
          StatusCode: '404',
          ResponseParameters: {
            'gatewayresponse.header.Content-Type': "'application/json'",
            'gatewayresponse.header.Request-Id': 'context.requestId',
            'gatewayresponse.header.X-Asked-With': 'method.request.header.X-Custom',
          },
          ResponseTemplates: {
            'application/json': {
              'Fn::Join': [
                '',
                [
                  '{"code":"route_not_found","docs":"https://',
                  { Ref: 'Api' },
                  '.execute-api.us-east-1.amazonaws.com/prod/docs","request_id":"$context.requestId"}',
                ],
              ],
            },
          },
        },
      },
      Throttled: {
        Type: 'AWS::ApiGateway::GatewayResponse',
        Properties: {
          RestApiId: { Ref: 'Api' },
          ResponseType: 'THROTTLED',
          StatusCode: '429',
          ResponseParameters: { 'gatewayresponse.header.Retry-After': "'1'" },
        },
      },
      Stage: {
        Type: 'AWS::ApiGateway::Stage',
        Properties: {
          RestApiId: { Ref: 'Api' },
          StageName: 'prod',
          MethodSettings: [{ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 1, ThrottlingBurstLimit: 40 }],
        },
      },
    },
  },
});

const events: APIGatewayProxyEvent[] = [];
const fakeLambdas = {
  invoke: async (arn: string, event: APIGatewayProxyEvent): Promise<InvokeOutcome> => {
    events.push(event);
    if (arn.endsWith('Slow')) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return { ok: true, payload: { statusCode: 200, body: 'late' } };
    }
    const sent = new Set(Object.keys(event.headers).map((name) => name.toLowerCase()));
    if (sent.has('x-fail')) return { ok: false, error: { errorType: 'Error', errorMessage: 'boom' } };
    if (sent.has('x-malformed')) return { ok: true, payload: { body: 'no status' } };
    return {
      ok: true,
      payload: {
        statusCode: 201,
        headers: { 'X-Resource': event.resource },
        multiValueHeaders: { 'Set-Cookie': ['a=1', 'b=2'] },
        body: 'ok',
      },
    };
  },
} as unknown as LambdaHost;

let server: Server;
let base: string;
beforeAll(async () => {
  const deployment = new Deployment(new CloudAssembly(written.directory));
  const [api] = readRestApis(deployment);
  deployment.addPublicUrl(`https://${api!.id}.execute-api.us-east-1.amazonaws.com/prod`, 'http://127.0.0.1:1');
  const handle = restApiHandler(api!, fakeLambdas, deployment);
  server = createServer(
    (request, response) => void handle(request, response, new URL(request.url!, 'http://x').pathname),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  written.remove();
});

const lastEvent = () => events.at(-1)!;

describe('API Gateway played from the template', () => {
  it("matches literal segments before parameters, takes the rest with a greedy one, and sends the method's function the REST proxy event", async () => {
    expect((await fetch(`${base}/v1/jobs/latest`)).headers.get('x-resource')).toBe('/v1/jobs/latest');
    const byId = await fetch(`${base}/v1/jobs/job_1%202?a=1&a=2&b=3`, { headers: { 'X-Custom': 'v' } });
    expect(byId.status).toBe(201);
    expect(byId.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(byId.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(lastEvent()).toMatchObject({
      resource: '/v1/jobs/{id}',
      path: '/v1/jobs/job_1%202',
      httpMethod: 'GET',
      pathParameters: { id: 'job_1 2' },
      queryStringParameters: { a: '2', b: '3' },
      multiValueQueryStringParameters: { a: ['1', '2'], b: ['3'] },
      body: null,
      isBase64Encoded: false,
      requestContext: {
        stage: 'prod',
        path: '/prod/v1/jobs/job_1%202',
        resourcePath: '/v1/jobs/{id}',
        httpMethod: 'GET',
      },
    });
    expect(lastEvent().headers['X-Custom']).toBe('v');
    expect(lastEvent().headers['X-Forwarded-Proto']).toBe('https');
    await fetch(`${base}/v1/files/a/b/c.png`, { method: 'DELETE' });
    expect(lastEvent().pathParameters).toEqual({ path: 'a/b/c.png' });
  });

  it('passes bodies of the binary media types base64-encoded and others as text', async () => {
    const form = new FormData();
    form.set('image', new Blob([Buffer.from([0xff, 0xd8, 0x00])], { type: 'image/jpeg' }), 'x.jpg');
    await fetch(`${base}/v1/jobs`, { method: 'POST', body: form });
    expect(lastEvent().isBase64Encoded).toBe(true);
    expect(Buffer.from(lastEvent().body!, 'base64').includes(Buffer.from([0xff, 0xd8, 0x00]))).toBe(true);
    await fetch(`${base}/v1/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"é":1}',
    });
    expect(lastEvent()).toMatchObject({ isBase64Encoded: false, body: '{"é":1}' });
  });

  it('sends a path no other resource matches, and the root, to the catch-all ANY methods', async () => {
    for (const [path, resource] of [
      ['/v2/nothing', '/{proxy+}'],
      ['/v1/jobs/latest/deeper', '/{proxy+}'],
      ['/', '/'],
    ] as const) {
      const answer = await fetch(`${base}${path}`, { method: 'PUT', body: 'x' });
      expect(answer.headers.get('x-resource'), path).toBe(resource);
      expect(lastEvent(), path).toMatchObject({ httpMethod: 'PUT', resource });
    }
    expect(lastEvent().pathParameters).toBeNull();
    await fetch(`${base}/v2/nothing`);
    expect(lastEvent().pathParameters).toEqual({ proxy: 'v2/nothing' });
  });

  it("answers what API Gateway answers itself through the template's gateway responses, headers mapped, public URLs made local", async () => {
    // a method the matched resource lacks is no route: API Gateway answers MISSING_AUTHENTICATION_TOKEN
    const missing = await fetch(`${base}/v1/jobs/latest`, { method: 'DELETE', headers: { 'X-Custom': 'mine' } });
    const requestId = missing.headers.get('x-amzn-requestid');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('request-id')).toBe(requestId);
    expect(missing.headers.get('x-asked-with')).toBe('mine');
    expect(await missing.json()).toEqual({
      code: 'route_not_found',
      docs: 'http://127.0.0.1:1/docs',
      request_id: requestId,
    });
    expect((await fetch(`${base}/v1/jobs`, { headers: { 'X-Fail': '1' }, method: 'POST' })).status).toBe(502);
    expect((await fetch(`${base}/v1/jobs`, { headers: { 'X-Malformed': '1' }, method: 'POST' })).status).toBe(502);
    const slow = await fetch(`${base}/v1/files/x`);
    expect(slow.status).toBe(504);
    expect(await slow.json()).toEqual({ message: 'Endpoint request timed out' });
    const preflight = await fetch(`${base}/v1/jobs`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses a body over 10 MB and an event over 6 MB with a bare 413, as API Gateway and Lambda do', async () => {
    const tooLarge = await fetch(`${base}/v1/jobs`, { method: 'POST', body: Buffer.alloc(11 * 1024 * 1024) });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ message: 'Request Too Long' });
    const overLambda = await fetch(`${base}/v1/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
      body: Buffer.alloc(5 * 1024 * 1024),
    });
    expect(overLambda.status).toBe(413);
  });

  it("throttles the stage at its burst, answering the template's THROTTLED response", async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, () => fetch(`${base}/v1/jobs/latest`)));
    const throttled = answers.filter((answer) => answer.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    expect(throttled[0]!.headers.get('retry-after')).toBe('1');
  });
});
