import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_DEFINITION } from '../../lambdas/adapters/dynamodb/table-definition.js';
import { SQS_MAX_MESSAGE_BYTES } from '../../lambdas/adapters/sqs-queue.js';
import { ERROR_CODES } from '../../lambdas/domain/kernel/errors.js';
import { functionName } from '../../lambdas/http/routes/define.js';
import { ROUTES } from '../../lambdas/http/routes/index.js';
import { PUBLIC_ROUTE_THROTTLE, STAGE_NAME } from '../../lib/api.js';
import { GATEWAY_ERRORS } from '../../lib/gateway-responses.js';
import { isDeployed } from '../../lib/management-settings.js';
import { ACCOUNT_THROTTLE } from '../../lib/production-settings.js';
import { MAX_RECEIVE_COUNT } from '../../lib/queues.js';
import { DEFAULT_INTEGRATION_TIMEOUT_SECONDS, routeFunctionTimeoutSeconds } from '../../lib/wait-ceiling.js';
import { WORK_BATCH_SIZE } from '../../lib/workers.js';
import {
  actionsOf,
  type CfnResource,
  flatten,
  ownFunctions,
  resourcePath,
  type Statement,
  statementsOf,
  synthStack,
} from './template.js';

/** The local payment provider's pages are not deployed by default. */
const DEPLOYED_ROUTES = ROUTES.filter((route) => isDeployed(route, {}));

let template: Template;
let resources: Record<string, CfnResource>;
let functions: ReturnType<typeof ownFunctions>;

beforeAll(() => {
  ({ template, resources } = synthStack());
  functions = ownFunctions(resources);
});

function logicalIdOf(type: string, predicate: (r: CfnResource) => boolean = () => true): string {
  const ids = Object.entries(resources)
    .filter(([, r]) => r.Type === type && predicate(r))
    .map(([id]) => id);
  expect(ids, type).toHaveLength(1);
  return ids[0]!;
}

function fnOf(name: string): { logicalId: string; props: Record<string, any> } {
  const fn = functions.get(name);
  if (!fn) throw new Error(`no function tagged ${name}`);
  return fn;
}

function statementsFor(name: string): Statement[] {
  return statementsOf(resources, fnOf(name).logicalId);
}

/** Which of our queues (by construct name) a function may send to. */
function sendTargets(statements: Statement[]): string[] {
  return statements
    .filter((s) => actionsOf([s]).includes('sqs:SendMessage'))
    .flatMap((s) => [s.Resource].flat().map(flatten))
    .map((arn) => (/(WebhookQueue|FastWorkQueue|WorkQueue)/.exec(arn) ?? ['?', arn])[1]!)
    .sort();
}

describe('data', () => {
  it('builds the table from TABLE_DEFINITION: on-demand, PITR, TTL, three GSIs, retained and protected', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        DeletionProtectionEnabled: true,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TABLE_DEFINITION.ttlAttribute, Enabled: true },
        KeySchema: [
          { AttributeName: TABLE_DEFINITION.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_DEFINITION.sortKey, KeyType: 'RANGE' },
        ],
      }),
    });
    const table = resources[logicalIdOf('AWS::DynamoDB::Table')]!;
    const indexes = table.Properties!.GlobalSecondaryIndexes as {
      IndexName: string;
      KeySchema: unknown;
      Projection: unknown;
    }[];
    expect(indexes).toHaveLength(TABLE_DEFINITION.globalIndexes.length);
    for (const gsi of TABLE_DEFINITION.globalIndexes) {
      expect(indexes.find((i) => i.IndexName === gsi.name)).toEqual({
        IndexName: gsi.name,
        KeySchema: [
          { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
          { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
        ],
        Projection: {
          ProjectionType: gsi.projection,
          ...('nonKeyAttributes' in gsi ? { NonKeyAttributes: [...gsi.nonKeyAttributes] } : {}),
        },
      });
    }
  });

  it('keeps the objects bucket private, encrypted, TLS-only, access-logged, with expiring inputs and outputs (test/cdk/retention.test.ts: when)', () => {
    const bucketId = logicalIdOf(
      'AWS::S3::Bucket',
      (r) =>
        Array.isArray(r.Properties?.LifecycleConfiguration?.Rules) &&
        r.Properties!.LifecycleConfiguration.Rules.length > 1,
    );
    const bucket = resources[bucketId]!;
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: { DestinationBucketName: expect.anything() },
    });
    const rules = bucket.Properties!.LifecycleConfiguration.Rules as {
      Prefix?: string;
      ExpirationInDays?: number;
      Status: string;
    }[];
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Prefix: 'inputs/', ExpirationInDays: expect.any(Number), Status: 'Enabled' }),
        expect.objectContaining({ Prefix: 'outputs/', ExpirationInDays: expect.any(Number), Status: 'Enabled' }),
      ]),
    );
    // enforceSSL: a bucket policy denying any request without TLS
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('makes every bucket private and encrypted (including the access-log bucket)', () => {
    for (const [id, bucket] of Object.entries(resources).filter(([, r]) => r.Type === 'AWS::S3::Bucket')) {
      expect(bucket.Properties?.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties?.BucketEncryption, id).toBeDefined();
    }
  });
});

describe('queues', () => {
  it('redrives the work and webhook queues to encrypted dead-letter queues after five receives', () => {
    const queues = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::SQS::Queue');
    // three queues, their two dead-letter queues, and those of the schedules, the Pipes and the batch events
    expect(queues).toHaveLength(8);
    const redriven = queues.filter(([, r]) => r.Properties?.RedrivePolicy);
    expect(redriven.map(([id]) => id).sort()).toEqual([
      expect.stringMatching(/FastWorkQueue/),
      expect.stringMatching(/WebhookQueue/),
      expect.stringMatching(/^QueuesWorkQueue/),
    ]);
    expect(MAX_RECEIVE_COUNT).toBe(5);
    // the message size the local stand-in's queues are created with (docs/internals/architecture.md, "AWS's limits, enforced locally")
    for (const [, queue] of redriven) expect(queue.Properties!.MaximumMessageSize).toBe(SQS_MAX_MESSAGE_BYTES);
    for (const [id, queue] of redriven) {
      const dlqId = (queue.Properties!.RedrivePolicy.deadLetterTargetArn as { 'Fn::GetAtt': [string, string] })[
        'Fn::GetAtt'
      ][0];
      expect(queue.Properties!.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVE_COUNT);
      expect(dlqId).not.toBe(id);
      expect(resources[dlqId]!.Properties?.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    }
    for (const [, queue] of queues) expect(queue.Properties?.SqsManagedSseEnabled).toBe(true);
    // enforceSSL on every queue
    for (const [id] of queues) {
      const policy = Object.values(resources).find(
        (r) =>
          r.Type === 'AWS::SQS::QueuePolicy' && JSON.stringify(r.Properties!.Queues) === JSON.stringify([{ Ref: id }]),
      );
      expect(policy?.Properties?.PolicyDocument.Statement, id).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      );
    }
  });

  it('gives the work queue a visibility timeout of at least six times the consumer timeout', () => {
    const work = Object.values(resources).find((r) => r.Type === 'AWS::SQS::Queue' && r.Properties?.RedrivePolicy)!;
    expect(work.Properties!.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fnOf('work-queue-consumer').props.Timeout);
  });
});

describe('functions', () => {
  it('creates one function per route handler export (every inference route shares create-job) plus the two workers, the inspection stage worker, the batch-run worker, the webhook delivery function and the retention worker (CDK helper functions aside)', () => {
    const handlers = new Set(DEPLOYED_ROUTES.map(functionName));
    expect(functions.size).toBe(handlers.size + 6);
    expect(DEPLOYED_ROUTES.filter((r) => functionName(r) === 'create-job').length).toBeGreaterThanOrEqual(25);
    for (const handler of handlers) expect(functions.has(handler), handler).toBe(true);
    for (const name of [
      'webhook-delivery',
      'work-queue-consumer',
      'sweeper',
      'inspection-stage',
      'batch-run',
      'retention',
    ])
      expect(functions.has(name), name).toBe(true);
    expect(new Set(DEPLOYED_ROUTES.map((r) => r.id)).size).toBe(DEPLOYED_ROUTES.length);
  });

  it('runs every function on Node 22, ARM64, traced, logging to its own one-month log group', () => {
    for (const [name, fn] of functions) {
      const handler = 'index.handler';
      expect(fn.props, name).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: handler,
        TracingConfig: { Mode: 'Active' },
      });
      const logGroupId = (fn.props.LoggingConfig.LogGroup as { Ref: string }).Ref;
      expect(resources[logGroupId]!.Properties!.RetentionInDays, name).toBe(30);
    }
  });

  it('configures each route function from its routes: the longest timeout under the integration, memory, environment', () => {
    for (const route of DEPLOYED_ROUTES) {
      const fn = fnOf(functionName(route)).props;
      expect(fn.Timeout, route.id).toBe(
        Math.max(
          ...DEPLOYED_ROUTES.filter((r) => functionName(r) === functionName(route)).map((r) =>
            routeFunctionTimeoutSeconds(
              r.timeoutSeconds === 'integration' ? DEFAULT_INTEGRATION_TIMEOUT_SECONDS : r.timeoutSeconds,
              DEFAULT_INTEGRATION_TIMEOUT_SECONDS,
            ),
          ),
        ),
      );
      expect(fn.MemorySize, route.id).toBe(512);
      const env = fn.Environment.Variables as Record<string, unknown>;
      for (const name of ['TABLE_NAME', 'BUCKET_NAME', 'WORK_QUEUE_URL', 'DOCS_URL'])
        expect(env[name], `${route.id} ${name}`).toBeDefined();
    }
  });

  it('feeds the consumer from the work queue in batches of ten, reporting failed items', () => {
    const queueId = Object.entries(resources).find(
      ([, r]) => r.Type === 'AWS::SQS::Queue' && r.Properties?.RedrivePolicy,
    )![0];
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnOf('work-queue-consumer').logicalId },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: WORK_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(WORK_BATCH_SIZE).toBe(10);
  });

  it('runs the sweeper every minute', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnOf('sweeper').logicalId, 'Arn'] } })],
    });
  });
});

describe('REST API', () => {
  it('exposes every route of the route table with its method, integrated with the function of its handler', () => {
    const methods = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGateway::Method');
    expect(methods).toHaveLength(DEPLOYED_ROUTES.length);
    const byKey = new Map(
      methods.map((m) => [`${m.Properties!.HttpMethod} ${resourcePath(resources, m.Properties!.ResourceId)}`, m]),
    );
    for (const route of DEPLOYED_ROUTES) {
      const method = byKey.get(`${route.method} ${route.path}`);
      expect(method, `${route.method} ${route.path}`).toBeDefined();
      expect(method!.Properties!.Integration.Type).toBe('AWS_PROXY');
      expect(flatten(method!.Properties!.Integration.Uri)).toContain(`<${fnOf(functionName(route)).logicalId}.Arn>`);
    }
  });

  it("sends the root and every path no route matches to the catch-all function, throttled as a public route, which answers the service's own 404", () => {
    const methods = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGateway::Method');
    for (const path of ['/', '/{proxy+}']) {
      const method = methods.find(
        (m) => m.Properties!.HttpMethod === 'ANY' && resourcePath(resources, m.Properties!.ResourceId) === path,
      );
      expect(method, path).toBeDefined();
      expect(method!.Properties!.Integration.Type).toBe('AWS_PROXY');
      expect(flatten(method!.Properties!.Integration.Uri)).toContain(`<${fnOf('route-not-found').logicalId}.Arn>`);
    }
    const catchAll = fnOf('route-not-found').props;
    expect(catchAll.Timeout).toBeLessThan(DEFAULT_INTEGRATION_TIMEOUT_SECONDS);
    // it touches nothing: no table, bucket or queue
    expect(actionsOf(statementsFor('route-not-found')).filter((action) => !/^(logs|xray):/.test(action))).toEqual([]);
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: Match.arrayWith(
        ['/', '/~1{proxy+}'].map((resourcePath) =>
          Match.objectLike({
            HttpMethod: '*',
            ResourcePath: resourcePath,
            ThrottlingRateLimit: PUBLIC_ROUTE_THROTTLE.rateLimit,
            ThrottlingBurstLimit: PUBLIC_ROUTE_THROTTLE.burstLimit,
          }),
        ),
      ),
    });
  });

  it('passes multipart bodies through as binary', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      BinaryMediaTypes: ['multipart/form-data'],
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
  });

  it('traces, access-logs and throttles the stage', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: STAGE_NAME,
      TracingEnabled: true,
      AccessLogSetting: {
        DestinationArn: Match.anyValue(),
        Format: Match.stringLikeRegexp('"request_id":"req_\\$context.requestId"'),
      },
      MethodSettings: Match.arrayWith([
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
          ThrottlingRateLimit: ACCOUNT_THROTTLE.rateLimit,
          ThrottlingBurstLimit: ACCOUNT_THROTTLE.burstLimit,
        }),
        Match.objectLike({
          HttpMethod: 'GET',
          ResourcePath: '/~1v1~1openapi.json',
          ThrottlingRateLimit: PUBLIC_ROUTE_THROTTLE.rateLimit,
          ThrottlingBurstLimit: PUBLIC_ROUTE_THROTTLE.burstLimit,
        }),
      ]),
    });
  });

  it("reshapes the gateway's own errors into the error envelope, with the functions' security headers and API Gateway's request id in request_id and Request-Id", () => {
    const responses = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGateway::GatewayResponse');
    expect(responses).toHaveLength(GATEWAY_ERRORS.length);
    for (const expected of [
      'DEFAULT_4XX',
      'DEFAULT_5XX',
      'MISSING_AUTHENTICATION_TOKEN',
      'UNAUTHORIZED',
      'ACCESS_DENIED',
      'REQUEST_TOO_LARGE',
      'THROTTLED',
      'INTEGRATION_TIMEOUT',
    ]) {
      expect(
        responses.some((r) => r.Properties!.ResponseType === expected),
        expected,
      ).toBe(true);
    }
    for (const gatewayError of GATEWAY_ERRORS) {
      const response = responses.find((r) => r.Properties!.ResponseType === gatewayError.type.responseType)!;
      const props = response.Properties!;
      const body: unknown = JSON.parse(flatten(props.ResponseTemplates['application/json']));
      const definition = ERROR_CODES[gatewayError.code];
      expect(body, gatewayError.type.responseType).toEqual({
        error: {
          type: definition.type,
          code: gatewayError.code,
          message: gatewayError.message ?? definition.message,
          param: null,
          doc_url: expect.stringMatching(
            new RegExp(
              `^https://<\\w+>\\.execute-api\\.<AWS::Region>\\.<AWS::URLSuffix>/${STAGE_NAME}/docs/errors/${gatewayError.code}$`,
            ),
          ),
          request_id: '$context.requestId',
        },
      });
      expect(props.ResponseParameters['gatewayresponse.header.Request-Id']).toBe('context.requestId');
      expect(props.ResponseParameters['gatewayresponse.header.Content-Type']).toBe("'application/json'");
      expect(props.ResponseParameters['gatewayresponse.header.X-Content-Type-Options']).toBe("'nosniff'");
      expect(props.ResponseParameters['gatewayresponse.header.X-Frame-Options']).toBe("'DENY'");
      expect(props.ResponseParameters['gatewayresponse.header.Referrer-Policy']).toBe("'no-referrer'");
      if (gatewayError.status) expect(props.StatusCode).toBe(gatewayError.status);
    }
    const status = (type: string) =>
      responses.find((r) => r.Properties!.ResponseType === type)!.Properties!.StatusCode as string | undefined;
    expect(status('MISSING_AUTHENTICATION_TOKEN')).toBe('404');
    expect(status('REQUEST_TOO_LARGE')).toBe('400');
    expect(status('THROTTLED')).toBe('429');
    expect(status('INTEGRATION_TIMEOUT')).toBe('504');
    // the function may still finish: a timeout must not claim the request was not billed
    const timeoutBody = flatten(
      responses.find((r) => r.Properties!.ResponseType === 'INTEGRATION_TIMEOUT')!.Properties!.ResponseTemplates[
        'application/json'
      ],
    );
    expect(timeoutBody).not.toContain('not billed');
    expect(timeoutBody).toContain('may still have been carried out');
    // the catch-alls keep the status API Gateway chose
    expect(status('DEFAULT_4XX')).toBeUndefined();
    expect(status('DEFAULT_5XX')).toBeUndefined();
  });

  it('points doc_url at the same base the functions use', () => {
    const docsUrl = flatten(fnOf('get-job').props.Environment.Variables.DOCS_URL);
    const envelope = JSON.parse(
      flatten(
        Object.values(resources).find((r) => r.Type === 'AWS::ApiGateway::GatewayResponse')!.Properties!
          .ResponseTemplates['application/json'],
      ),
    ) as {
      error: { doc_url: string };
    };
    expect(envelope.error.doc_url.startsWith(`${docsUrl}/errors/`)).toBe(true);
  });

  it('outputs the API URL, table name, bucket name and queue URL', () => {
    for (const name of ['ApiUrl', 'TableName', 'BucketName', 'WorkQueueUrl'])
      template.hasOutput(name, { Value: Match.anyValue() });
  });
});

describe('least privilege', () => {
  const dataAction = /^(dynamodb|sqs|s3):/;

  it('gives the public routes (OpenAPI, error docs) no table, queue or bucket rights', () => {
    for (const handler of ['get-open-api', 'get-error-doc']) {
      const actions = actionsOf(statementsFor(handler));
      expect(
        actions.filter((a) => dataAction.test(a)),
        handler,
      ).toEqual([]);
    }
  });

  it('lets inference routes enqueue work and write inputs, but not touch outputs beyond reading', () => {
    const statements = statementsFor('create-job');
    expect(actionsOf(statements)).toContain('sqs:SendMessage');
    const puts = statements
      .filter((s) => actionsOf([s]).includes('s3:PutObject'))
      .flatMap((s) => [s.Resource].flat().map(flatten));
    expect(puts.length).toBeGreaterThan(0);
    for (const resource of puts) expect(resource).toMatch(/\/inputs\/\*$/);
  });

  it('does not let readers or cancel enqueue, and lets readers only update counters on the table', () => {
    for (const handler of ['get-job', 'list-jobs', 'list-endpoints']) {
      const actions = actionsOf(statementsFor(handler));
      expect(actions, handler).not.toContain('sqs:SendMessage');
      expect(
        actions.filter((a) => a.startsWith('s3:Put')),
        handler,
      ).toEqual([]);
    }
    // canceling a batch's last job completes the batch: its output file and batch.completed (docs/internals/batches.md)
    const cancel = statementsFor('cancel-job');
    expect(sendTargets(cancel)).toEqual(['WebhookQueue']);
    expect(
      cancel.filter((s) => actionsOf([s]).includes('s3:PutObject')).flatMap((s) => [s.Resource].flat().map(flatten)),
    ).toEqual([expect.stringMatching(/\/outputs\/\*$/)]);
    for (const handler of ['get-job', 'list-jobs', 'list-endpoints']) {
      const actions = actionsOf(statementsFor(handler));
      expect(
        actions.filter((a) => /^dynamodb:(Put|Delete|BatchWrite)/.test(a)),
        handler,
      ).toEqual([]);
      expect(actions, handler).toContain('dynamodb:UpdateItem');
    }
  });

  it('lets the sweeper enqueue work and the consumer consume, write outputs and send only webhook messages', () => {
    // and Lambda parks a failed scheduled run on the schedules' dead-letter queue, with the sweeper's role
    expect(sendTargets(statementsFor('sweeper'))).toEqual([
      expect.stringMatching(/^<QueuesScheduleDeadLetterQueue\w+\.Arn>$/),
      'FastWorkQueue',
      'WebhookQueue',
      'WorkQueue',
    ]);
    const consumer = statementsFor('work-queue-consumer');
    expect(actionsOf(consumer)).toEqual(
      expect.arrayContaining([
        'sqs:ReceiveMessage',
        'sqs:DeleteMessage',
        'dynamodb:UpdateItem',
        'dynamodb:ConditionCheckItem',
      ]),
    );
    // it re-sends a job steered `slow` to its lane until the job is due
    expect(sendTargets(consumer)).toEqual(['FastWorkQueue', 'WebhookQueue', 'WorkQueue']);
    const puts = consumer
      .filter((s) => actionsOf([s]).includes('s3:PutObject'))
      .flatMap((s) => [s.Resource].flat().map(flatten));
    expect(puts).toEqual([expect.stringMatching(/\/outputs\/\*$/)]);
  });

  it('lets the consumer and the sweeper read every input of a job (multipart inputs, uploads) and its outputs', () => {
    // the consumer hashes uploaded inputs and copies a passthrough render; the sweeper re-submits live jobs with presigned input URLs
    for (const worker of ['work-queue-consumer', 'sweeper']) {
      const statements = statementsFor(worker);
      const reads = statements
        .filter((s) => actionsOf([s]).includes('s3:GetObject'))
        .flatMap((s) => [s.Resource].flat().map(flatten));
      expect(reads.map((arn) => /\/(\w+)\/\*$/.exec(arn)?.[1]).sort(), worker).toEqual([
        'inputs',
        'outputs',
        'uploads',
      ]);
      expect(actionsOf(statements), worker).toContain('s3:ListBucket');
    }
  });

  it('lets the completion route settle jobs (announcing them on the webhook queue) and read outputs (and batch input files): no work enqueue, writes only a batch output file', () => {
    const statements = statementsFor('receive-completion');
    const actions = actionsOf(statements);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 's3:GetObject', 's3:ListBucket']));
    expect(sendTargets(statements)).toEqual(['WebhookQueue']);
    // the last settlement of a batch's job writes the batch's output file (docs/internals/batches.md)
    const puts = statements
      .filter((s) => actionsOf([s]).includes('s3:PutObject'))
      .flatMap((s) => [s.Resource].flat().map(flatten));
    expect(puts).toEqual([expect.stringMatching(/\/outputs\/\*$/)]);
    const reads = statements
      .filter((s) => actionsOf([s]).includes('s3:GetObject'))
      .flatMap((s) => [s.Resource].flat().map(flatten));
    expect(reads.sort()).toEqual([expect.stringMatching(/\/outputs\/\*$/), expect.stringMatching(/\/uploads\/\*$/)]);
  });

  it('shares a role only between route functions whose routes declare the same access and secrets, each writing to its own log group', () => {
    const roleOf = (name: string) => (fnOf(name).props.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const users = new Map<string, string[]>();
    for (const name of functions.keys()) users.set(roleOf(name), [...(users.get(roleOf(name)) ?? []), name]);
    const declared = (handler: string) => {
      const route = DEPLOYED_ROUTES.find((r) => functionName(r) === handler)!;
      return JSON.stringify([
        route.access,
        (route.settings ?? []).filter((s) => s === 'payments' || s === 'inference_callback_secret'),
      ]);
    };
    expect(users.size).toBeLessThan(functions.size);
    for (const [role, names] of users) {
      if (names.length > 1) expect(new Set(names.map(declared)).size, names.join(', ')).toBe(1);
      const logWrites = statementsOf(resources, fnOf(names[0]!).logicalId)
        .filter((s) => actionsOf([s]).includes('logs:PutLogEvents'))
        .flatMap((s) => [s.Resource].flat().map(flatten));
      const ownLogGroups = names.map(
        (name) => `<${(fnOf(name).props.LoggingConfig.LogGroup as { Ref: string }).Ref}.Arn>`,
      );
      expect(logWrites.sort(), role).toEqual(ownLogGroups.sort());
    }
    // the completion route answers task tokens: nobody else may
    expect(users.get(roleOf('receive-completion'))).toEqual(['receive-completion']);
  });

  it('scopes DynamoDB actions to the table and its indexes, never `*`', () => {
    const tableId = logicalIdOf('AWS::DynamoDB::Table');
    for (const [name, fn] of functions) {
      for (const statement of statementsOf(resources, fn.logicalId)) {
        if (!actionsOf([statement]).some((a) => a.startsWith('dynamodb:'))) continue;
        for (const resource of [statement.Resource].flat().map(flatten)) {
          expect([`<${tableId}.Arn>`, `<${tableId}.Arn>/index/*`], `${name}: ${resource}`).toContain(resource);
        }
      }
    }
  });

  it('never grants wildcard actions, and `*` resources only for X-Ray', () => {
    for (const [name, fn] of functions) {
      for (const statement of statementsOf(resources, fn.logicalId)) {
        const actions = actionsOf([statement]);
        for (const action of actions) expect(action, name).not.toMatch(/^\*$|:\*$/);
        if ([statement.Resource].flat().includes('*'))
          expect(
            actions.every((a) => a.startsWith('xray:')),
            `${name}: ${actions.join(',')}`,
          ).toBe(true);
      }
    }
  });
});
