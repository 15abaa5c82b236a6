import { randomBytes } from 'node:crypto';
import { type CreateTableCommandInput, type DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { ensureBucket, ensureQueue, ensureTable } from '../provision.js';
import type { StoredSecret } from '../stand-ins/secrets-manager.js';
import type { StackResource } from './cloud-assembly.js';
import type { Deployment } from './deployment.js';

/** The queue attributes a template may set that the stand-in applies at creation. */
const QUEUE_ATTRIBUTES = [
  'DelaySeconds',
  'MaximumMessageSize',
  'MessageRetentionPeriod',
  'ReceiveMessageWaitTimeSeconds',
  'VisibilityTimeout',
  'FifoQueue',
  'ContentBasedDeduplication',
];

export interface ProvisionClients {
  dynamodb: DynamoDBClient;
  s3: S3Client;
  sqs: SQSClient;
}

/** Values of generated secrets, by secret name: kept by the caller so a restart keeps them. */
export type SecretValues = Record<string, string>;

function props(deployment: Deployment, target: StackResource): Record<string, unknown> {
  return deployment.resolve(target.resource.Properties ?? {}, target.stack) as Record<string, unknown>;
}

async function provisionTable(deployment: Deployment, client: DynamoDBClient, target: StackResource): Promise<void> {
  const p = props(deployment, target);
  const name = typeof p.TableName === 'string' ? p.TableName : deployment.generatedName(target, 255);
  const onDemand = p.BillingMode === 'PAY_PER_REQUEST';
  const throughput = onDemand
    ? {}
    : {
        ProvisionedThroughput: (p.ProvisionedThroughput as CreateTableCommandInput['ProvisionedThroughput']) ?? {
          ReadCapacityUnits: 5,
          WriteCapacityUnits: 5,
        },
      };
  const stream = p.StreamSpecification as { StreamViewType?: string } | undefined;
  const indexes = (p.GlobalSecondaryIndexes as Array<Record<string, unknown>> | undefined)?.map(
    ({ ContributorInsightsSpecification: _, ...index }) => index,
  );
  const table = await ensureTable(client, {
    TableName: name,
    AttributeDefinitions: p.AttributeDefinitions as CreateTableCommandInput['AttributeDefinitions'],
    KeySchema: p.KeySchema as CreateTableCommandInput['KeySchema'],
    BillingMode: onDemand ? 'PAY_PER_REQUEST' : 'PROVISIONED',
    ...throughput,
    ...(indexes?.length
      ? { GlobalSecondaryIndexes: indexes as unknown as CreateTableCommandInput['GlobalSecondaryIndexes'] }
      : {}),
    ...(p.LocalSecondaryIndexes
      ? { LocalSecondaryIndexes: p.LocalSecondaryIndexes as CreateTableCommandInput['LocalSecondaryIndexes'] }
      : {}),
    ...(stream?.StreamViewType
      ? { StreamSpecification: { StreamEnabled: true, StreamViewType: stream.StreamViewType as 'NEW_IMAGE' } }
      : {}),
  });
  const ttl = p.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
  if (ttl?.Enabled && ttl.AttributeName) {
    await client
      .send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { AttributeName: ttl.AttributeName, Enabled: true },
        }),
      )
      .catch(() => undefined);
  }
  const arn = table.TableArn ?? deployment.arn('dynamodb', `table/${name}`);
  deployment.record(target, {
    ref: name,
    attributes: { Arn: arn, ...(table.LatestStreamArn ? { StreamArn: table.LatestStreamArn } : {}) },
  });
}

async function provisionBucket(deployment: Deployment, client: S3Client, target: StackResource): Promise<void> {
  const p = props(deployment, target);
  const name = typeof p.BucketName === 'string' ? p.BucketName : deployment.generatedName(target, 63, true);
  await ensureBucket(client, name);
  const region = deployment.region;
  deployment.record(target, {
    ref: name,
    attributes: {
      Arn: `arn:aws:s3:::${name}`,
      DomainName: `${name}.s3.amazonaws.com`,
      RegionalDomainName: `${name}.s3.${region}.amazonaws.com`,
      DualStackDomainName: `${name}.s3.dualstack.${region}.amazonaws.com`,
      WebsiteURL: `http://${name}.s3-website-${region}.amazonaws.com`,
    },
  });
}

async function provisionQueues(deployment: Deployment, client: SQSClient, targets: StackResource[]): Promise<void> {
  const redrives: Array<{ url: string; policy: unknown }> = [];
  for (const target of targets) {
    const p = props(deployment, target);
    const fifo = p.FifoQueue === true || p.FifoQueue === 'true';
    const name =
      typeof p.QueueName === 'string'
        ? p.QueueName
        : `${deployment.generatedName(target, fifo ? 75 : 80)}${fifo ? '.fifo' : ''}`;
    const attributes = Object.fromEntries(
      QUEUE_ATTRIBUTES.filter((attribute) => p[attribute] !== undefined).map((attribute) => [
        attribute,
        String(p[attribute]),
      ]),
    );
    const url = await ensureQueue(client, name, attributes);
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
    );
    deployment.record(target, {
      ref: url,
      attributes: { Arn: Attributes?.QueueArn ?? deployment.arn('sqs', name), QueueName: name, QueueUrl: url },
    });
    if (p.RedrivePolicy) redrives.push({ url, policy: p.RedrivePolicy });
  }
  // dead-letter queues are named by ARN: set once every queue exists
  for (const { url, policy } of redrives) {
    await client.send(
      new SetQueueAttributesCommand({
        QueueUrl: url,
        Attributes: { RedrivePolicy: typeof policy === 'string' ? policy : JSON.stringify(policy) },
      }),
    );
  }
}

function provisionSecret(deployment: Deployment, target: StackResource, values: SecretValues): StoredSecret {
  const p = props(deployment, target);
  const name = typeof p.Name === 'string' ? p.Name : deployment.generatedName(target, 256);
  const generate = p.GenerateSecretString as
    | { PasswordLength?: number; SecretStringTemplate?: string; GenerateStringKey?: string }
    | undefined;
  if (typeof p.SecretString === 'string') values[name] = p.SecretString;
  else if (!values[name]) {
    const password = randomBytes(64)
      .toString('base64')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, generate?.PasswordLength ?? 32);
    values[name] =
      generate?.SecretStringTemplate && generate.GenerateStringKey
        ? JSON.stringify({ ...JSON.parse(generate.SecretStringTemplate), [generate.GenerateStringKey]: password })
        : password;
  }
  const arn = deployment.arn('secretsmanager', `secret:${name}-${randomBytes(3).toString('hex')}`);
  deployment.record(target, { ref: arn, attributes: { Id: arn } });
  return { arn, name, value: values[name]! };
}

/**
 * Creates what the assembly's templates declare in the stand-ins, as CloudFormation would on
 * AWS: tables (keys, indexes, stream, TTL), buckets, queues (attributes and dead-letter
 * redrive) and secrets, and records each one's physical name for the intrinsics to resolve.
 */
export async function provisionAssembly(
  deployment: Deployment,
  clients: ProvisionClients,
  secretValues: SecretValues,
): Promise<StoredSecret[]> {
  const { assembly } = deployment;
  for (const table of assembly.resources('AWS::DynamoDB::Table'))
    await provisionTable(deployment, clients.dynamodb, table);
  for (const bucket of assembly.resources('AWS::S3::Bucket')) await provisionBucket(deployment, clients.s3, bucket);
  await provisionQueues(deployment, clients.sqs, assembly.resources('AWS::SQS::Queue'));
  return assembly
    .resources('AWS::SecretsManager::Secret')
    .map((secret) => provisionSecret(deployment, secret, secretValues));
}
