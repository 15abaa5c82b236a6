import { Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { DataAccess, ObjectPrefix } from '../lambdas/http/routes/define.js';
import { OBJECT_PREFIXES } from './data.js';
import { wildcardResourceFinding } from './nag.js';

export interface DataResources {
  table: ITable;
  bucket: IBucket;
  workQueue: IQueue;
  fastWorkQueue: IQueue;
  webhookQueue: IQueue;
}

/**
 * The queue consumer and the sweeper both drive jobs to settlement: the consumer from its messages, the
 * sweeper from the table (expiring and re-driving jobs, re-submitting live ones to the inference plane,
 * re-sending lost webhook messages, taking over and completing batches whose driver stopped). Both
 * settle jobs, store result and batch output files, and read a job's inputs, multipart (`inputs/`) or
 * uploaded (`uploads/`): the SHA-256 of an uploaded input, the sandbox model's passthrough copy, the
 * presigned GET URLs the inference plane is sent. `ListBucket` makes a missing object a 404 rather than
 * a 403. The consumer's event sources add its consume rights.
 */
export const JOB_DRIVER_ACCESS: DataAccess = {
  table: 'readwrite',
  enqueue: true,
  enqueueWebhooks: true,
  writeObjects: ['outputs'],
  readObjects: ['inputs', 'uploads', 'outputs'],
  listObjects: true,
};
/** Webhook delivery: deliveries and events in the table, re-enqueues its own retries. */
export const WEBHOOK_DELIVERY_ACCESS: DataAccess = { table: 'readwrite', enqueueWebhooks: true };

export function grantDataAccess(fn: IFunction, resources: DataResources, access: DataAccess): void {
  if (access.table === 'read' || access.table === 'count') resources.table.grantReadData(fn);
  if (access.table === 'count') resources.table.grant(fn, 'dynamodb:UpdateItem');
  if (access.table === 'readwrite') resources.table.grantReadWriteData(fn);
  if (access.table !== 'none') {
    acknowledgeWildcard(
      fn,
      `${resources.table.tableArn}/index/*`,
      'Queries need the GSIs (gsi1 to gsi5) by ARN; `<table>/index/*` names exactly the indexes of this one table.',
    );
  }
  if (access.enqueue) for (const queue of [resources.workQueue, resources.fastWorkQueue]) queue.grantSendMessages(fn);
  if (access.enqueueWebhooks) resources.webhookQueue.grantSendMessages(fn);

  const objects = (prefixes: readonly ObjectPrefix[]) =>
    prefixes.map((p) => resources.bucket.arnForObjects(`${OBJECT_PREFIXES[p]}*`));
  const writeObjects = access.writeObjects ?? [];
  const readObjects = access.readObjects ?? [];
  const deleteObjects = access.deleteObjects ?? [];
  if (writeObjects.length)
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: objects(writeObjects) }));
  if (readObjects.length)
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: objects(readObjects) }));
  if (deleteObjects.length)
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: objects(deleteObjects) }));
  if (access.listObjects)
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [resources.bucket.bucketArn] }));
  for (const prefix of new Set([...writeObjects, ...readObjects, ...deleteObjects])) {
    acknowledgeWildcard(
      fn,
      resources.bucket.arnForObjects(`${OBJECT_PREFIXES[prefix]}*`),
      `Object keys carry organisation and job ids chosen at run time; access is confined to the ${OBJECT_PREFIXES[prefix]} prefix of the one bucket.`,
    );
  }
}

/**
 * Acknowledges cdk-nag's IAM5 finding for exactly one wildcard resource ARN on this function's
 * role, named as it resolves in the role's stack (`<Table.Arn>/index/*` beside the table, the
 * parameter `<TableArn>/index/*` in the route functions' stack), so any other wildcard still fails the synth.
 */
function acknowledgeWildcard(fn: IFunction, arn: string, reason: string): void {
  if (fn.role) Validations.of(fn.role).acknowledge({ id: wildcardResourceFinding(fn.role, arn), reason });
}
