import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  type TableDescription,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { TABLE_DEFINITION } from '../lambdas/adapters/dynamodb/table-definition.js';

/** The table's creation request, from the same definition the CDK stack deploys. */
function tableInput(tableName: string): CreateTableCommandInput {
  const attributes = new Set<string>([TABLE_DEFINITION.partitionKey, TABLE_DEFINITION.sortKey]);
  for (const index of TABLE_DEFINITION.globalIndexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    // the stream the job stream's Pipes read (local/job-stream.ts), as the CDK stack declares it
    StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_DEFINITION.streamViewType },
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE_DEFINITION.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_DEFINITION.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: TABLE_DEFINITION.globalIndexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: {
        ProjectionType: index.projection,
        ...('nonKeyAttributes' in index ? { NonKeyAttributes: [...index.nonKeyAttributes] } : {}),
      },
    })),
  };
}

/** Creates the table with the same key schema the CDK stack deploys (or as `input` says); a no-op if it exists. */
export async function ensureTable(
  client: DynamoDBClient,
  table: string | CreateTableCommandInput,
): Promise<TableDescription> {
  const input = typeof table === 'string' ? tableInput(table) : table;
  try {
    await client.send(new CreateTableCommand(input));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  let described = (await client.send(new DescribeTableCommand({ TableName: input.TableName }))).Table!;
  // a table kept from an earlier run (a data directory) gets the indexes added since, one an
  // update, as a deploy adds them to the deployed table (its items are indexed as they are)
  for (const index of input.GlobalSecondaryIndexes ?? []) {
    if (described.GlobalSecondaryIndexes?.some((existing) => existing.IndexName === index.IndexName)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: input.TableName,
        AttributeDefinitions: input.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    described = await untilIndexesActive(client, input.TableName!);
  }
  const wanted = input.StreamSpecification;
  // a table kept from before its stream was declared (npm start's data survives restarts) gets it now
  if (wanted?.StreamEnabled && !described.StreamSpecification?.StreamEnabled) {
    const updated = await client.send(
      new UpdateTableCommand({ TableName: input.TableName, StreamSpecification: wanted }),
    );
    return updated.TableDescription!;
  }
  return described;
}

/** The table once no index of it is still being created (as on AWS, one is queried only once active). */
async function untilIndexesActive(client: DynamoDBClient, tableName: string): Promise<TableDescription> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table!;
    if ((table.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE')) return table;
    if (Date.now() > deadline) throw new Error(`the indexes of ${tableName} did not become active`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function ensureBucket(client: S3Client, bucketName: string): Promise<void> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucketName }));
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
  }
}

/**
 * Returns the queue URL as the stand-in names it. Its host does not resolve, which is fine:
 * clients always carry an explicit endpoint, and the stand-in finds queues by this URL.
 */
export async function ensureQueue(
  client: SQSClient,
  queueName: string,
  attributes: Record<string, string> = { VisibilityTimeout: '30' },
): Promise<string> {
  const out = await client.send(new CreateQueueCommand({ QueueName: queueName, Attributes: attributes }));
  if (!out.QueueUrl) throw new Error(`the stand-in created no URL for ${queueName}`);
  return out.QueueUrl;
}
