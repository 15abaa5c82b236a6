import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLog } from '../../../../lambdas/adapters/logger.js';
import { CloudAssembly } from '../../../../local/assembly/cloud-assembly.js';
import { Deployment } from '../../../../local/assembly/deployment.js';
import { type EventSources, startEventSources } from '../../../../local/assembly/event-sources.js';
import { LambdaHost } from '../../../../local/assembly/lambda-host.js';
import { provisionAssembly } from '../../../../local/assembly/provision.js';
import { sdkQueueTransport } from '../../../../local/queue-loop.js';
import { LOCAL_AWS_CREDENTIALS } from '../../../../local/stand-ins/object-and-queue-server.js';
import { writeCloudAssembly } from '../../../support/cloud-assembly.js';
import { eventually } from '../../../support/http.js';

/**
 * The event sources of an assembly on the shared stand-ins: a Pipe from a table's stream to a
 * queue (filter, input template), the queue's event source mapping (batches, partial-batch
 * answers, redelivery after the visibility timeout) and a schedule, all read from a template.
 */
const written = writeCloudAssembly(
  {
    main: {
      Resources: {
        Table: {
          Type: 'AWS::DynamoDB::Table',
          Properties: {
            KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
            AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
            BillingMode: 'PAY_PER_REQUEST',
            StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
          },
        },
        Work: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 1 } },
        Consumer: {
          Type: 'AWS::Lambda::Function',
          Properties: {
            Code: { S3Key: 'consumer.zip' },
            Handler: 'index.handler',
            Runtime: 'nodejs22.x',
            Timeout: 5,
            MemorySize: 128,
            Environment: { Variables: { QUEUE: { Ref: 'Work' } } },
          },
        },
        Mapping: {
          Type: 'AWS::Lambda::EventSourceMapping',
          Properties: {
            EventSourceArn: { 'Fn::GetAtt': ['Work', 'Arn'] },
            FunctionName: { Ref: 'Consumer' },
            BatchSize: 10,
            FunctionResponseTypes: ['ReportBatchItemFailures'],
          },
        },
        Pipe: {
          Type: 'AWS::Pipes::Pipe',
          Properties: {
            Source: { 'Fn::GetAtt': ['Table', 'StreamArn'] },
            Target: { 'Fn::GetAtt': ['Work', 'Arn'] },
            SourceParameters: {
              FilterCriteria: {
                Filters: [
                  {
                    Pattern: JSON.stringify({
                      eventName: ['INSERT'],
                      dynamodb: { NewImage: { pk: { S: [{ prefix: 'JOB#' }] } } },
                    }),
                  },
                ],
              },
            },
            TargetParameters: { InputTemplate: '{"job": "<$.dynamodb.NewImage.pk.S>"}' },
          },
        },
        Schedule: {
          Type: 'AWS::Events::Rule',
          Properties: {
            ScheduleExpression: 'rate(1 hour)',
            State: 'ENABLED',
            Targets: [{ Arn: { 'Fn::GetAtt': ['Consumer', 'Arn'] }, Id: 'tick', Input: '{"tick":true}' }],
          },
        },
      },
    },
  },
  'us-east-1',
  ['consumer'],
);
const seenFile = join(written.directory, 'seen.jsonl');
writeFileSync(
  join(written.directory, 'asset.consumer', 'index.mjs'),
  `import { appendFileSync } from 'node:fs';
export const handler = async (event) => {
  if (event.tick) { appendFileSync(${JSON.stringify(seenFile)}, JSON.stringify({ tick: true, queue: process.env.QUEUE }) + '\\n'); return null; }
  for (const record of event.Records) appendFileSync(${JSON.stringify(seenFile)}, JSON.stringify({ body: record.body, count: record.attributes.ApproximateReceiveCount, source: record.eventSource }) + '\\n');
  // "fail" fails on its first delivery only: reported as a partial-batch failure
  return { batchItemFailures: event.Records.filter((r) => r.body === 'fail' && r.attributes.ApproximateReceiveCount === '1').map((r) => ({ itemIdentifier: r.messageId })) };
};`,
);
const seen = (): Array<{ body?: string; count?: string; tick?: boolean; queue?: string }> =>
  existsSync(seenFile)
    ? readFileSync(seenFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
    : [];

// the stand-in's S3 knows the local credentials only, as S3 knows only real keys
const credentials = { ...LOCAL_AWS_CREDENTIALS };
let deployment: Deployment;
let lambdas: LambdaHost;
let events: EventSources;
let clients: { dynamodb: DynamoDBClient; s3: S3Client; sqs: SQSClient };

beforeAll(async () => {
  const standIns = inject('standIns');
  clients = {
    dynamodb: new DynamoDBClient({ region: 'us-east-1', credentials, endpoint: standIns.dynamodb }),
    s3: new S3Client({ region: 'us-east-1', credentials, endpoint: standIns.s3, forcePathStyle: true }),
    sqs: new SQSClient({ region: 'us-east-1', credentials, endpoint: standIns.sqs }),
  };
  deployment = new Deployment(new CloudAssembly(written.directory), `t${randomUUID().slice(0, 8)}-`);
  await provisionAssembly(deployment, clients, {});
  const consumer = deployment.assembly.resources('AWS::Lambda::Function')[0]!;
  lambdas = new LambdaHost(
    [
      {
        name: deployment.physicalOf(consumer).ref,
        arn: deployment.physicalOf(consumer).attributes.Arn!,
        codeDirectory: deployment.assembly.assetPath('consumer.zip'),
        handler: 'index.handler',
        runtime: 'nodejs22.x',
        timeoutSeconds: 5,
        memoryMb: 128,
        environment: { QUEUE: deployment.resolveString({ Ref: 'Work' }, consumer.stack) },
      },
    ],
    { baseEnvironment: {} },
  );
  events = startEventSources({
    deployment,
    lambdas,
    queues: sdkQueueTransport(clients.sqs),
    sqs: clients.sqs,
    dynamodbEndpoint: standIns.dynamodb,
    log: createLog('event-sources-test', 'SILENT'),
  });
  // the Pipe starts at the stream's newest record: write only once it has taken its first look
  await events.pipesPositioned;
});

afterAll(async () => {
  await events.stop();
  await lambdas.stop();
  for (const client of Object.values(clients)) client.destroy();
  written.remove();
});

describe('event sources read from the template', () => {
  // retried: DynamoDB Local's stream now and then leaves a first record unread (seen about once in
  // five full runs); each try inserts an item of its own, so a retry proves the pipe afresh
  it("pipes the table's new items that pass the filter to the queue, rendered by the input template, and the mapping delivers them", {
    retry: 2,
    timeout: 90_000,
  }, async () => {
    const table = deployment.physicalOf(deployment.assembly.resources('AWS::DynamoDB::Table')[0]!).ref;
    const piped = `JOB#piped-${randomUUID()}`;
    const body = `{"job": "${piped}"}`;
    await clients.dynamodb.send(
      new PutItemCommand({ TableName: table, Item: { pk: { S: `KEY#skipped-${randomUUID()}` } } }),
    );
    await clients.dynamodb.send(new PutItemCommand({ TableName: table, Item: { pk: { S: piped } } }));
    // the first delivery also starts the consumer's bundle: seconds alone, tens of seconds on a busy runner
    await eventually(async () => seen().some((entry) => entry.body === body), 40_000);
    expect(seen().find((entry) => entry.body === body)).toMatchObject({ count: '1', source: 'aws:sqs' });
    expect(seen().some((entry) => entry.body?.includes('KEY#'))).toBe(false);
  });

  it('deletes what a batch answered and redelivers only the reported failure, after the visibility timeout', async () => {
    const queueUrl = deployment.physicalOf(deployment.assembly.resources('AWS::SQS::Queue')[0]!).ref;
    for (const body of ['ok-1', 'fail', 'ok-2'])
      await clients.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
    await eventually(async () => seen().filter((entry) => entry.body === 'fail').length === 2, 15_000);
    expect(
      seen()
        .filter((entry) => entry.body === 'fail')
        .map((entry) => entry.count),
    ).toEqual(['1', '2']);
    // the others were deleted with the first answer: never seen again, even after another visibility timeout
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(seen().filter((entry) => entry.body?.startsWith('ok-')).length).toBe(2);
  });

  it("invokes a schedule's target with its constant input", async () => {
    await events.runSchedules();
    expect(seen().find((entry) => entry.tick)).toMatchObject({
      tick: true,
      queue: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/000000000000\/t.*Work$/),
    });
  });
});
