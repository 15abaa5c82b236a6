import { randomUUID } from 'node:crypto';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Log } from '../../lambdas/domain/ports/services.js';
import { type QueueLoop, type QueueTransport, type ReceivedMessage, startBatchQueueLoop } from '../queue-loop.js';
import { LOCAL_AWS_CREDENTIALS } from '../stand-ins/object-and-queue-server.js';
import { type StreamPipe, streamPipe } from '../stream-pipe.js';
import { pollStream, type StreamPoller } from '../table-stream.js';
import type { StackResource } from './cloud-assembly.js';
import type { Deployment } from './deployment.js';
import { checkPattern, matchesPattern } from './event-pattern.js';
import type { LambdaHost } from './lambda-host.js';

/** Lambda's SQS poller takes at most ten messages per receive; larger batch sizes are filled by one receive here. */
const MAX_RECEIVE = 10;

export interface EventSourceOptions {
  deployment: Deployment;
  lambdas: LambdaHost;
  /** the queue calls the mappings make */
  queues: QueueTransport;
  /** the Pipes' own sends to their target queues */
  sqs: SQSClient;
  /** DynamoDB Local, whose streams the Pipes read */
  dynamodbEndpoint: string;
  log: Log;
  /** concurrent batches per mapping at most, when the mapping sets no maximum */
  defaultConcurrency?: number;
}

export interface EventSources {
  /** runs every scheduled rule's targets now (tests call this instead of waiting for the schedule) */
  runSchedules(): Promise<void>;
  /** settles once every pipe reads its stream from the newest record on (a Pipe starts at LATEST) */
  pipesPositioned: Promise<void>;
  stop(): Promise<void>;
}

function props(deployment: Deployment, target: StackResource): Record<string, unknown> {
  return deployment.resolve(target.resource.Properties ?? {}, target.stack) as Record<string, unknown>;
}

/** The resource of `type` whose attribute `attribute` is `value` (a queue by its ARN, a table by its stream). */
function byAttribute(
  deployment: Deployment,
  type: string,
  attribute: string,
  value: unknown,
): StackResource | undefined {
  return deployment.assembly
    .resources(type)
    .find((target) => deployment.physicalOf(target).attributes[attribute] === value);
}

function sqsRecord(message: ReceivedMessage, queueArn: string, region: string) {
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: message.Attributes ?? {},
    messageAttributes: message.MessageAttributes ?? {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

/** The receipt handles to keep from a mapping's invocation: its partial-batch answer, or the whole batch when it failed. */
function keptAfter(
  outcome: Awaited<ReturnType<LambdaHost['invoke']>>,
  messages: ReceivedMessage[],
  reportsFailures: boolean,
): Set<string> {
  const all = new Set(messages.map((message) => message.ReceiptHandle!));
  if (!outcome.ok) return all;
  if (!reportsFailures) return new Set();
  const answer = outcome.payload as { batchItemFailures?: unknown } | null;
  if (answer === null || answer === undefined || (typeof answer === 'object' && answer.batchItemFailures === undefined))
    return new Set();
  const failures = answer.batchItemFailures;
  // Lambda treats an answer it cannot read as a failure of the whole batch
  if (!Array.isArray(failures)) return all;
  const byId = new Map(messages.map((message) => [message.MessageId, message.ReceiptHandle!]));
  const kept = new Set<string>();
  for (const failure of failures as Array<{ itemIdentifier?: unknown }>) {
    const handle = byId.get(String(failure?.itemIdentifier));
    if (!handle) return all;
    kept.add(handle);
  }
  return kept;
}

function startSqsMappings(options: EventSourceOptions): QueueLoop[] {
  const { deployment, lambdas, log } = options;
  const loops: QueueLoop[] = [];
  for (const mapping of deployment.assembly.resources('AWS::Lambda::EventSourceMapping')) {
    const p = props(deployment, mapping);
    if (p.Enabled === false) continue;
    const queue = byAttribute(deployment, 'AWS::SQS::Queue', 'Arn', p.EventSourceArn);
    if (!queue) {
      log.warn('event source mapping not run locally: only SQS sources are', {
        mapping: mapping.logicalId,
        source: String(p.EventSourceArn),
      });
      continue;
    }
    const fn = lambdas.functionOf(String(p.FunctionName));
    if (!fn) throw new Error(`${mapping.logicalId}: no function ${String(p.FunctionName)}`);
    const queueUrl = deployment.physicalOf(queue).ref;
    const queueArn = String(p.EventSourceArn);
    const reportsFailures = ((p.FunctionResponseTypes as string[] | undefined) ?? []).includes(
      'ReportBatchItemFailures',
    );
    const filters = ((p.FilterCriteria as { Filters?: Array<{ Pattern: string }> } | undefined)?.Filters ?? []).map(
      ({ Pattern }) => JSON.parse(Pattern) as unknown,
    );
    for (const filter of filters) checkPattern(filter, mapping.logicalId);
    const concurrency =
      (p.ScalingConfig as { MaximumConcurrency?: number } | undefined)?.MaximumConcurrency ??
      options.defaultConcurrency ??
      5;
    if (Number(p.BatchSize ?? 10) > MAX_RECEIVE)
      log.info('batch size above ten is filled by one receive of ten locally', { mapping: mapping.logicalId });
    loops.push(
      startBatchQueueLoop(
        log,
        options.queues,
        queueUrl,
        async (messages) => {
          const records = messages.map((message) => sqsRecord(message, queueArn, deployment.region));
          // a record no filter matches is dropped: deleted without an invocation, as Lambda does
          const passing = filters.length
            ? records.filter((record) =>
                filters.some((filter) => matchesPattern(filter, { ...record, body: parseBody(record.body) })),
              )
            : records;
          if (passing.length === 0) return new Set();
          const invoked = messages.filter((message) =>
            passing.some((record) => record.receiptHandle === message.ReceiptHandle),
          );
          return keptAfter(await lambdas.invoke(fn.arn, { Records: passing }), invoked, reportsFailures);
        },
        { name: `${fn.name} ← ${queue.logicalId}`, maxInFlight: Math.min(concurrency, 10) },
      ),
    );
  }
  return loops;
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** `rate(5 minutes)` in milliseconds; cron expressions are not run locally. */
function rateMs(expression: string): number | null {
  const match = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression.trim());
  if (!match) return null;
  const unit = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }[
    match[2]!.replace(/s$/, '') as 'minute' | 'hour' | 'day'
  ];
  return Number(match[1]) * unit;
}

interface Schedule {
  run(): Promise<void>;
  timer: NodeJS.Timeout;
}

function startSchedules(options: EventSourceOptions): Schedule[] {
  const { deployment, lambdas, log } = options;
  const schedules: Schedule[] = [];
  for (const rule of deployment.assembly.resources('AWS::Events::Rule')) {
    const p = props(deployment, rule);
    if (typeof p.ScheduleExpression !== 'string' || p.State === 'DISABLED') continue;
    const every = rateMs(p.ScheduleExpression);
    if (every === null) {
      log.warn('schedule not run locally: only rate() expressions are', {
        rule: rule.logicalId,
        expression: p.ScheduleExpression,
      });
      continue;
    }
    const ruleArn = deployment.arn('events', `rule/${rule.logicalId}`);
    const targets = (p.Targets as Array<{ Arn: string; Input?: string }> | undefined) ?? [];
    const run = async () => {
      const event = {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account: deployment.accountId,
        time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        region: deployment.region,
        resources: [ruleArn],
        detail: {},
      };
      await Promise.all(
        targets.map(async (target) => {
          if (!lambdas.functionOf(target.Arn)) return;
          const outcome = await lambdas.invoke(target.Arn, target.Input ? JSON.parse(target.Input) : event);
          if (!outcome.ok) log.warn('scheduled invocation failed', { rule: rule.logicalId, ...outcome.error });
        }),
      );
    };
    let running = false;
    const timer = setInterval(() => {
      // an EventBridge schedule does not wait for the previous run; one at a time is enough locally
      if (running) return;
      running = true;
      void run().finally(() => {
        running = false;
      });
    }, every);
    timer.unref();
    schedules.push({ run, timer });
  }
  return schedules;
}

function startPipes(options: EventSourceOptions): StreamPoller[] {
  const { deployment, lambdas, log } = options;
  const byStream = new Map<string, StreamPipe[]>();
  for (const pipe of deployment.assembly.resources('AWS::Pipes::Pipe')) {
    const p = props(deployment, pipe);
    if (p.DesiredState === 'STOPPED') continue;
    const source = String(p.Source);
    if (!byAttribute(deployment, 'AWS::DynamoDB::Table', 'StreamArn', source)) {
      log.warn('pipe not run locally: only DynamoDB stream sources are', { pipe: pipe.logicalId, source });
      continue;
    }
    if (p.Enrichment) throw new Error(`${pipe.logicalId}: pipe enrichment is not run locally`);
    const sourceParameters = p.SourceParameters as
      | {
          FilterCriteria?: { Filters?: Array<{ Pattern: string }> };
          DynamoDBStreamParameters?: {
            BatchSize?: number;
            MaximumBatchingWindowInSeconds?: number;
            MaximumRetryAttempts?: number;
            DeadLetterConfig?: { Arn?: string };
          };
        }
      | undefined;
    const stream = sourceParameters?.DynamoDBStreamParameters ?? {};
    const targetArn = String(p.Target);
    const queue = byAttribute(deployment, 'AWS::SQS::Queue', 'Arn', targetArn);
    const fn = lambdas.functionOf(targetArn);
    if (!queue && !fn)
      throw new Error(`${pipe.logicalId}: only SQS queues and Lambda functions are run locally as pipe targets`);
    const deadLetterQueue = stream.DeadLetterConfig?.Arn
      ? byAttribute(deployment, 'AWS::SQS::Queue', 'Arn', stream.DeadLetterConfig.Arn)
      : undefined;
    if (stream.DeadLetterConfig?.Arn && !deadLetterQueue)
      throw new Error(`${pipe.logicalId}: only SQS queues are run locally as a pipe's dead-letter queue`);
    const sendTo = (queueUrl: string) => async (body: string) => {
      await options.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
    };
    const subscribers = byStream.get(source) ?? [];
    byStream.set(source, subscribers);
    subscribers.push(
      streamPipe(
        {
          name: pipe.logicalId,
          filters: (sourceParameters?.FilterCriteria?.Filters ?? []).map(
            ({ Pattern }) => JSON.parse(Pattern) as unknown,
          ),
          // CloudFormation's defaults for a stream source
          batchSize: stream.BatchSize ?? 100,
          maximumBatchingWindowInSeconds: stream.MaximumBatchingWindowInSeconds ?? 0,
          maximumRetryAttempts: stream.MaximumRetryAttempts ?? -1,
          inputTemplate: (p.TargetParameters as { InputTemplate?: string } | undefined)?.InputTemplate,
        },
        {
          target: queue
            ? async (events) => {
                const send = sendTo(deployment.physicalOf(queue).ref);
                for (const event of events) await send(event);
              }
            : async (events) => {
                const outcome = await lambdas.invoke(
                  fn!.arn,
                  events.map((event) => JSON.parse(event) as unknown),
                );
                if (!outcome.ok) throw new Error(`${outcome.error.errorType}: ${outcome.error.errorMessage}`);
              },
          deadLetter: deadLetterQueue ? sendTo(deployment.physicalOf(deadLetterQueue).ref) : null,
          log,
        },
      ),
    );
  }
  return [...byStream].map(([streamArn, subscribers]) =>
    pollStream(
      { endpoint: options.dynamodbEndpoint, accessKeyId: LOCAL_AWS_CREDENTIALS.accessKeyId },
      streamArn,
      async (records, shard) => {
        await Promise.all(subscribers.map((deliver) => deliver(records, shard)));
      },
      log,
    ),
  );
}

/**
 * What invokes the assembly's functions besides API Gateway: SQS event source mappings (batches,
 * partial-batch answers, filters, maximum concurrency), EventBridge schedules (`rate(…)`) and
 * EventBridge Pipes from a table's stream (filters, input template, SQS or Lambda target).
 */
export function startEventSources(options: EventSourceOptions): EventSources {
  const mappings = startSqsMappings(options);
  const schedules = startSchedules(options);
  const pipes = startPipes(options);
  return {
    pipesPositioned: Promise.all(pipes.map((pipe) => pipe.positioned)).then(() => undefined),
    runSchedules: async () => {
      await Promise.all(schedules.map((schedule) => schedule.run()));
    },
    stop: async () => {
      for (const schedule of schedules) clearInterval(schedule.timer);
      await Promise.all([...pipes.map((pipe) => pipe.stop()), ...mappings.map((loop) => loop.stop())]);
    },
  };
}
