import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createLog, type LogLevel } from '../../lambdas/adapters/logger.js';
import { buildContainer, type Container } from '../../lambdas/composition/container.js';
import { systemClock } from '../../lambdas/domain/kernel/clock.js';
import type { Log } from '../../lambdas/domain/ports/services.js';
import { substitute } from '../../statemachines/inspection.js';
import {
  type LocalIssuer,
  loadOrCreateSigningKey,
  localIssuer,
  MANAGEMENT_AUDIENCE,
  publicKeySet,
} from '../local-issuer.js';
import { type QueueTransport, sdkQueueTransport } from '../queue-loop.js';
import type { StandInEndpoints } from '../runtime.js';
import { startAwsJsonServices } from '../stand-ins/aws-json-services.js';
import { executionStatusEvent } from '../stand-ins/execution-status-event.js';
import { freePort } from '../stand-ins/free-port.js';
import { LOCAL_AWS_CREDENTIALS } from '../stand-ins/object-and-queue-server.js';
import { SecretsManagerStandIn, type StoredSecret } from '../stand-ins/secrets-manager.js';
import { StepFunctionsStandIn } from '../stand-ins/step-functions.js';
import { CloudAssembly, type StackResource } from './cloud-assembly.js';
import { Deployment } from './deployment.js';
import { distributionHandler, readDistribution } from './distribution.js';
import { type EventSources, startEventSources } from './event-sources.js';
import { executionStatusRules } from './execution-status-rules.js';
import { startFunctionUrls } from './function-urls.js';
import { type LambdaFunction, LambdaHost } from './lambda-host.js';
import { provisionAssembly, type SecretValues } from './provision.js';
import { readRestApis, restApiHandler } from './rest-api.js';

export interface AssemblyRuntimeOptions {
  /** a synthesised cloud assembly (`cdk.out`) */
  assemblyDirectory: string;
  standIns: StandInEndpoints;
  /** 0 picks a free port */
  port: number;
  /** how the event source mappings reach their queues; default the SDK */
  queueTransport?: QueueTransport;
  /** before every generated resource name, so tests can share stand-ins */
  namePrefix?: string;
  /** the completion callback's shared secret: the value of whichever secret the template gives the callback route */
  inferenceCallbackSecret: string;
  /** values of the secrets the template generates, kept by the caller across restarts */
  secretValues?: SecretValues;
  /** where the JWT signing key persists; without it the key lives in memory */
  signingKeyFile?: string;
  /** the functions' `LOG_LEVEL` and this runtime's own threshold (default WARN) */
  logLevel?: LogLevel;
  /** concurrent instances of one function at most */
  maxInstancesPerFunction?: number;
}

export interface AssemblyRuntime {
  baseUrl: string;
  issuer: LocalIssuer;
  /** the service's stores, over the same table and bucket the functions use (seeding, tests) */
  services: Container;
  lambdas: LambdaHost;
  events: EventSources;
  /** the top-level stacks' outputs (ApiUrl, ReferencePlaneUrl, …), resolved to their local values */
  outputs: Record<string, string>;
  /** what this assembly lacks that `npm start` has (no JWT issuer, no inference plane), in a sentence each */
  notes: string[];
  stop(): Promise<void>;
}

function props(deployment: Deployment, target: StackResource): Record<string, unknown> {
  return deployment.resolve(target.resource.Properties ?? {}, target.stack) as Record<string, unknown>;
}

/** Each function of the templates with the environment the template gives it (public URLs made local). */
function readFunctions(deployment: Deployment): LambdaFunction[] {
  return deployment.assembly.resources('AWS::Lambda::Function').flatMap((target) => {
    const p = target.resource.Properties ?? {};
    const code = p.Code as { S3Key?: unknown } | undefined;
    // inline code (CDK's own helpers) and functions without a staged asset are not run locally
    if (!code?.S3Key) return [];
    const physical = deployment.physicalOf(target);
    const variables = ((p.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ??
      {}) as Record<string, unknown>;
    const environment = Object.fromEntries(
      Object.entries(variables).map(([name, value]) => [name, deployment.resolveString(value, target.stack)]),
    );
    return [
      {
        name: physical.ref,
        arn: physical.attributes.Arn!,
        codeDirectory: deployment.assembly.assetPath(deployment.resolveString(code.S3Key, target.stack)),
        handler: String(p.Handler ?? 'index.handler'),
        runtime: String(p.Runtime ?? ''),
        timeoutSeconds: Number(p.Timeout ?? 3),
        memoryMb: Number(p.MemorySize ?? 128),
        environment,
      },
    ];
  });
}

/** The state machines of the templates, their definitions with `DefinitionSubstitutions` applied as Step Functions applies them. */
function readStateMachines(deployment: Deployment) {
  return deployment.assembly.resources('AWS::StepFunctions::StateMachine').map((target) => {
    const p = props(deployment, target);
    if (typeof p.DefinitionString !== 'string')
      throw new Error(`${target.logicalId}: only inline definitions (DefinitionString) are run locally`);
    const substitutions = (p.DefinitionSubstitutions ?? {}) as Record<string, string>;
    const physical = deployment.physicalOf(target);
    return {
      arn: physical.ref,
      name: physical.attributes.Name!,
      definition: substitute(p.DefinitionString, substitutions),
    };
  });
}

/** The secrets the functions name by ARN: the template's own, and imported ones (the callback's holds the runtime's callback secret). */
function secretsFor(
  functions: readonly LambdaFunction[],
  created: StoredSecret[],
  inferenceCallbackSecret: string,
): StoredSecret[] {
  const secrets = [...created];
  for (const fn of functions) {
    const callbackArn = fn.environment.INFERENCE_CALLBACK_SECRET_ARN;
    if (!callbackArn) continue;
    const known = secrets.find(
      (secret) => secret.arn === callbackArn || secret.arn.replace(/-[A-Za-z0-9]{6}$/, '') === callbackArn,
    );
    if (known) known.value = inferenceCallbackSecret;
    else
      secrets.push({
        arn: callbackArn,
        name: callbackArn.split(':secret:')[1] ?? callbackArn,
        value: inferenceCallbackSecret,
      });
  }
  return secrets;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * The service as the cloud assembly describes it, on the local stand-ins: every function runs
 * its bundled asset with the environment the template gives it (plus the stand-ins' endpoints),
 * API Gateway, function URLs, SQS event source mappings, schedules, Pipes and Step Functions are
 * played from the templates, and CloudFront's behaviours serve the site from the staged assets.
 * Nothing here reads the TypeScript sources' route table: the templates are the only input.
 */
export async function startAssemblyRuntime(options: AssemblyRuntimeOptions): Promise<AssemblyRuntime> {
  const log: Log = createLog('automotive-inference-assembly', options.logLevel ?? 'WARN');
  const deployment = new Deployment(new CloudAssembly(options.assemblyDirectory), options.namePrefix);
  const region = deployment.region;
  const common = { region, credentials: LOCAL_AWS_CREDENTIALS };
  const clients = {
    dynamodb: new DynamoDBClient({ ...common, endpoint: options.standIns.dynamodb }),
    s3: new S3Client({ ...common, endpoint: options.standIns.s3, forcePathStyle: true }),
    sqs: new SQSClient({ ...common, endpoint: options.standIns.sqs }),
  };
  const created = await provisionAssembly(deployment, clients, options.secretValues ?? {});

  // the front door's address comes first: the deployed API's URLs become it
  const port = options.port || (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const restApis = readRestApis(deployment);
  for (const api of restApis)
    deployment.addPublicUrl(`https://${api.id}.execute-api.${region}.amazonaws.com/${api.stage}`, baseUrl);
  // where signed object URLs point: the region's S3 hosts there, the S3 stand-in here
  deployment.addPublicUrl(`https://*.s3.${region}.amazonaws.com`, options.standIns.s3);
  for (const target of deployment.assembly.resources('AWS::CloudFront::Distribution')) {
    // the distribution is the front door: its domain is this address
    const domain = `${deployment.generatedName(target, 14, true).replace(/[^a-z0-9]/g, '')}.cloudfront.net`;
    deployment.record(target, { ref: domain, attributes: { DomainName: domain, Id: target.logicalId } });
    deployment.addPublicUrl(`https://${domain}`, baseUrl);
  }

  let lambdas: LambdaHost | undefined;
  const functionUrls = await startFunctionUrls(deployment, () => lambdas!, log);
  const functions = readFunctions(deployment);

  const signingKey = await loadOrCreateSigningKey(options.signingKeyFile);
  const audience = functions.find((fn) => fn.environment.JWT_AUDIENCE)?.environment.JWT_AUDIENCE ?? MANAGEMENT_AUDIENCE;
  const issuer = localIssuer(baseUrl, signingKey, systemClock, audience);
  const statusRules = executionStatusRules(deployment, () => lambdas!, log);
  const stepFunctions = new StepFunctionsStandIn(
    readStateMachines(deployment),
    async (payload, functionName) => {
      const outcome = await lambdas!.invoke(functionName, payload);
      if (outcome.ok) return outcome.payload;
      throw Object.assign(new Error(outcome.error.errorMessage), { name: outcome.error.errorType });
    },
    log,
    {
      // a Distributed Map's ItemReader: the state machine's own S3 access, to the S3 stand-in
      readObject: async (bucket, key) => {
        const object = await clients.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return (await object.Body?.transformToString('utf8')) ?? '';
      },
      onExecutionEnd: (stateMachineArn, name, status, input) =>
        statusRules.deliver(
          executionStatusEvent({
            stateMachineArn,
            name,
            status,
            input,
            region,
            account: deployment.accountId,
          }),
        ),
    },
  );
  const jsonServices = await startAwsJsonServices(
    [stepFunctions, new SecretsManagerStandIn(secretsFor(functions, created, options.inferenceCallbackSecret))],
    {
      '/.well-known/jwks.json': () => publicKeySet(signingKey),
    },
  );

  for (const fn of functions) {
    // the local issuer stands in for the JWT issuer the template names (Cognito or another OIDC issuer)
    if (fn.environment.JWT_ISSUER)
      Object.assign(fn.environment, {
        JWT_ISSUER: baseUrl,
        JWT_AUDIENCE: audience,
        JWKS_URL: `${jsonServices.endpoint}/.well-known/jwks.json`,
      });
  }
  lambdas = new LambdaHost(functions, {
    maxInstancesPerFunction: options.maxInstancesPerFunction ?? 10,
    baseEnvironment: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LANG: 'en_US.UTF-8',
      AWS_REGION: region,
      AWS_DEFAULT_REGION: region,
      AWS_ACCESS_KEY_ID: LOCAL_AWS_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_AWS_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: options.standIns.dynamodb,
      AWS_ENDPOINT_URL_S3: options.standIns.s3,
      AWS_ENDPOINT_URL_SQS: options.standIns.sqs,
      AWS_ENDPOINT_URL_SFN: jsonServices.endpoint,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: jsonServices.endpoint,
      // Lambda runs Node 22; this machine may run 20, where the SDK warns on every cold start
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...(options.logLevel ? { LOG_LEVEL: options.logLevel } : {}),
    },
  });

  const distribution = readDistribution(deployment, restApis);
  const apiHandlers = new Map(restApis.map((api) => [api.id, restApiHandler(api, lambdas, deployment)]));
  const front: (request: IncomingMessage, response: ServerResponse) => Promise<void> = distribution
    ? distributionHandler(distribution, apiHandlers)
    : async (request, response) => {
        const api = apiHandlers.values().next().value;
        if (!api) {
          response.writeHead(404).end();
          return;
        }
        await api(request, response, new URL(request.url ?? '/', baseUrl).pathname);
      };
  const server = createServer((request, response) => {
    front(request, response).catch((error: unknown) => {
      log.error('local front door failed', { error: String(error) });
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ message: 'Internal server error' }));
    });
  });
  await listen(server, port);

  const events = startEventSources({
    deployment,
    lambdas,
    queues: options.queueTransport ?? sdkQueueTransport(clients.sqs),
    sqs: clients.sqs,
    dynamodbEndpoint: options.standIns.dynamodb,
    log,
  });
  // a record written before a pipe's first look would be skipped (it reads from the newest on)
  await events.pipesPositioned;

  // the stores the functions use, for seeding: what a function with the service's environment sees
  const serviceEnvironment = functions.find(
    (fn) => fn.environment.TABLE_NAME && fn.environment.BUCKET_NAME,
  )?.environment;
  if (!serviceEnvironment) throw new Error('no function of the assembly names the service table (TABLE_NAME)');
  const services = buildContainer({
    infrastructure: {
      region,
      tableName: serviceEnvironment.TABLE_NAME!,
      bucketName: serviceEnvironment.BUCKET_NAME!,
      workQueueUrl: serviceEnvironment.WORK_QUEUE_URL ?? '',
      webhookQueueUrl: serviceEnvironment.WEBHOOK_QUEUE_URL ?? '',
      endpoints: options.standIns,
      credentials: LOCAL_AWS_CREDENTIALS,
    },
    log,
  });

  return {
    baseUrl,
    issuer,
    services,
    lambdas,
    events,
    outputs: Object.fromEntries(
      deployment.assembly.stacks
        .filter((stack) => !stack.parent)
        .flatMap((stack) =>
          Object.entries(stack.template.Outputs ?? {}).map(([name, output]) => [
            name,
            deployment.resolveString(output.Value, stack),
          ]),
        ),
    ),
    notes: [
      ...(functions.some((fn) => fn.environment.JWT_ISSUER)
        ? []
        : [
            'the assembly names no JWT issuer (synthesised without -c jwtIssuer): management routes answer 503, as they would on AWS',
          ]),
      ...(functions.some((fn) => fn.environment.INFERENCE_PLANE_URL)
        ? []
        : [
            'the assembly has no inference plane (synthesised without -c referencePlane=true or -c inferencePlaneUrl): live jobs stay queued and expire',
          ]),
    ],
    stop: async () => {
      await closeServer(server);
      await events.stop();
      await stepFunctions.stop();
      // the runs the stop ended let go of their batches' leases (the FailedRuns rule) before the functions stop
      await statusRules.drain();
      await lambdas!.stop();
      await functionUrls.stop();
      await jsonServices.stop();
      services.clients.dynamodb.destroy();
      for (const client of Object.values(clients)) client.destroy();
    },
  };
}
