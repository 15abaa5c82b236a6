import { CfnParameter, type NestedStack } from 'aws-cdk-lib';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { DataResources } from './access.js';

/** The data resources a nested stack takes as parameters from the main stack: its only references to it. */
export const DATA_PARAMETERS = [
  'TableArn',
  'TableName',
  'BucketArn',
  'BucketName',
  'WorkQueueArn',
  'WorkQueueUrl',
  'FastWorkQueueArn',
  'FastWorkQueueUrl',
  'WebhookQueueArn',
  'WebhookQueueUrl',
] as const;
export type DataParameter = (typeof DATA_PARAMETERS)[number];

/** The main stack's side: the values a nested stack's data parameters are given. */
export function dataParameterValues(resources: DataResources): Record<DataParameter, string> {
  return {
    TableArn: resources.table.tableArn,
    TableName: resources.table.tableName,
    BucketArn: resources.bucket.bucketArn,
    BucketName: resources.bucket.bucketName,
    WorkQueueArn: resources.workQueue.queueArn,
    WorkQueueUrl: resources.workQueue.queueUrl,
    FastWorkQueueArn: resources.fastWorkQueue.queueArn,
    FastWorkQueueUrl: resources.fastWorkQueue.queueUrl,
    WebhookQueueArn: resources.webhookQueue.queueArn,
    WebhookQueueUrl: resources.webhookQueue.queueUrl,
  };
}

/** Declares `names` as the nested stack's parameters and returns their values. */
export function stackParameters<const P extends string>(stack: NestedStack, names: readonly P[]): Record<P, string> {
  return Object.fromEntries(
    names.map((name) => [name, new CfnParameter(stack, name, { type: 'String' }).valueAsString]),
  ) as Record<P, string>;
}

/** The nested stack's side: the data resources imported from its parameters. */
export function importedDataResources(stack: NestedStack, param: Record<DataParameter, string>): DataResources {
  return {
    table: Table.fromTableAttributes(stack, 'Table', { tableArn: param.TableArn, grantIndexPermissions: true }),
    bucket: Bucket.fromBucketAttributes(stack, 'Bucket', { bucketArn: param.BucketArn, bucketName: param.BucketName }),
    workQueue: Queue.fromQueueAttributes(stack, 'WorkQueue', {
      queueArn: param.WorkQueueArn,
      queueUrl: param.WorkQueueUrl,
    }),
    fastWorkQueue: Queue.fromQueueAttributes(stack, 'FastWorkQueue', {
      queueArn: param.FastWorkQueueArn,
      queueUrl: param.FastWorkQueueUrl,
    }),
    webhookQueue: Queue.fromQueueAttributes(stack, 'WebhookQueue', {
      queueArn: param.WebhookQueueArn,
      queueUrl: param.WebhookQueueUrl,
    }),
  };
}
