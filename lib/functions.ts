import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, type Duration, Names, Tags, Validations } from 'aws-cdk-lib';
import { type IRole, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type BuildOptions, buildSync } from 'esbuild';
import type { DataResources } from './access.js';
import { buildOnSynth } from './local-build.js';

/** The repository root: entry files and the lock file are resolved from here, never from the cwd. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What serviceFunction makes: a Lambda function with its code bundled at synth. */
export type ServiceFunction = LambdaFunction;

/** Every function this stack owns carries this tag (value: its name), so tests can tell them from CDK's helpers. */
export const FUNCTION_TAG = 'ais:function';

/** Pinned, not "latest": the bundle targets node22 and the local runtime is tested on the same major. */
export const LAMBDA_RUNTIME = Runtime.NODEJS_22_X;

/**
 * How every function is bundled: one ESM file for Node 22 on the local esbuild, minified, with a
 * source map of mappings only (stack traces need no embedded sources, and the zip stays small),
 * the AWS SDK left to the runtime. Only warnings and errors print.
 */
export const LAMBDA_BUNDLE: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  external: ['@aws-sdk/*'],
  mainFields: ['module', 'main'],
  // some CommonJS dependencies call require(); an ESM bundle has to provide it
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
};

/**
 * The function's code: its entry bundled at synth by esbuild's API in this process (what
 * NodejsFunction does through one `npx --no-install esbuild` per bundle, about half a second of
 * CPU each before esbuild starts). Functions sharing an entry share the bundle.
 */
function bundledCode(entry: string, addFiles?: (outputDir: string) => void): Code {
  return Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: buildOnSynth(entry, (outputDir) => {
      buildSync({
        ...LAMBDA_BUNDLE,
        absWorkingDir: PROJECT_ROOT,
        entryPoints: [entry],
        outfile: join(outputDir, 'index.mjs'),
      });
      addFiles?.(outputDir);
    }),
  });
}

export interface ServiceFunctionProps {
  /** stable name: the tag value and part of the construct ids */
  name: string;
  /** entry file, relative to the repository root */
  entry: string;
  /** the entry's export Lambda calls (`index.<export>`); default `handler` */
  handler?: string;
  description: string;
  timeout: Duration;
  memorySize?: number;
  environment: Record<string, string>;
  /** a role shared with functions of the same access (lib/route-functions.ts); default: a role of its own */
  role?: IRole;
  /**
   * Where Lambda parks an asynchronous invocation that failed (the schedules' functions). Without it
   * the function is only ever invoked synchronously, and the caller sees and handles its failures.
   */
  deadLetterQueue?: IQueue;
  /** writes files the bundle cannot hold beside the handler (the reference plane's OCR engine and data) */
  addFiles?: (outputDir: string) => void;
}

/**
 * One function with the house settings: Node 22 on ARM64, an ESM bundle with the AWS SDK left to
 * the runtime (LAMBDA_BUNDLE), active tracing, and its own one-month log group. Unless the caller shares
 * one, the role is created here (not by CDK's default) so that it can write to that one log group
 * and nothing else: callers add data grants on top. A shared role may write to the log groups of
 * the functions sharing it.
 */
export function serviceFunction(scope: Construct, id: string, props: ServiceFunctionProps): ServiceFunction {
  const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH });
  const role = props.role ?? executionRole(scope, `${id}Role`, `${props.name}: execution role`);
  logGroup.grantWrite(role);

  const fn = new LambdaFunction(scope, id, {
    code: bundledCode(props.entry, props.addFiles),
    handler: `index.${props.handler ?? 'handler'}`,
    description: props.description,
    runtime: LAMBDA_RUNTIME,
    architecture: Architecture.ARM_64,
    memorySize: props.memorySize ?? 512,
    timeout: props.timeout,
    tracing: Tracing.ACTIVE,
    role,
    logGroup,
    ...(props.deadLetterQueue ? { deadLetterQueue: props.deadLetterQueue } : {}),
    environment: {
      // the bundle ships a source map; stack traces in the logs should point at the TypeScript
      NODE_OPTIONS: '--enable-source-maps',
      ...props.environment,
    },
  });
  Tags.of(fn).add(FUNCTION_TAG, props.name);

  const pinned =
    'The runtime is pinned to Node.js 22 on purpose: the bundle targets node22 and the local runtime and tests run on the same major. Moving to a newer runtime is a deliberate upgrade.';
  Validations.of(fn).acknowledge(
    { id: 'AwsSolutions-L1', reason: pinned },
    { id: 'Serverless-LambdaLatestVersion', reason: pinned },
  );
  if (!props.deadLetterQueue)
    Validations.of(fn).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason:
        'Invoked synchronously only (API Gateway, an SQS event source mapping, Step Functions, Cognito or its URL): the caller sees each failure and retries or parks the work (the queues have dead-letter queues); a function dead-letter queue serves asynchronous invocations only.',
    });
  return fn;
}

/** A Lambda execution role with nothing granted yet; active tracing adds X-Ray's `*`, acknowledged here. */
export function executionRole(scope: Construct, id: string, description: string): Role {
  const role = new Role(scope, id, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: description.slice(0, 1000),
  });
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Active X-Ray tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions.',
  });
  return role;
}

/** The variables `containerFromEnvironment` (lambdas/composition/container.ts) reads; every function gets them. */
export function serviceEnvironment(resources: DataResources, docsUrl: string): Record<string, string> {
  return {
    TABLE_NAME: resources.table.tableName,
    BUCKET_NAME: resources.bucket.bucketName,
    WORK_QUEUE_URL: resources.workQueue.queueUrl,
    FAST_WORK_QUEUE_URL: resources.fastWorkQueue.queueUrl,
    WEBHOOK_QUEUE_URL: resources.webhookQueue.queueUrl,
    DOCS_URL: docsUrl,
  };
}

/**
 * `fn` consumes `queue` through an SQS event source mapping: failures reported per record, at most
 * `maxConcurrency` invocations at once (lib/concurrency.ts). A message that keeps failing goes to the
 * queue's own dead-letter queue: SQS event sources take no on-failure destination.
 */
export function consumeQueue(
  fn: ServiceFunction,
  queue: IQueue,
  options: { batchSize: number; maxConcurrency: number },
): void {
  const source = new SqsEventSource(queue, { ...options, reportBatchItemFailures: true });
  fn.addEventSource(source);
  const mapping = fn.node.findChild(`SqsEventSource:${Names.nodeUniqueId(queue.node)}`);
  Validations.of(mapping).acknowledge({
    id: 'Serverless-LambdaEventSourceMappingDestination',
    reason:
      'Lambda takes on-failure destinations for stream and Kafka event sources, not SQS: a message that keeps failing goes to the queue’s own dead-letter queue (or, where there is none, is sent again by the service).',
  });
}
