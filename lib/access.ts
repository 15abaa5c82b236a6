import { CfnResource, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { HandlerName, RouteDefinition } from '../lambdas/http/routes.js';
import { OBJECT_PREFIXES } from './data.js';

export type ObjectPrefix = keyof typeof OBJECT_PREFIXES;

/** What one function may touch. Anything not listed here is denied. */
export interface DataAccess {
  /** `count`: reads plus UpdateItem, for the rate-limit and polling counters and `last_used_at` */
  table: 'none' | 'read' | 'count' | 'readwrite';
  /** may send to the work queue */
  enqueue: boolean;
  /** s3:PutObject under these prefixes (also what a presigned PUT needs) */
  writeObjects: readonly ObjectPrefix[];
  /** s3:GetObject under these prefixes (HeadObject, and what a presigned GET needs) */
  readObjects: readonly ObjectPrefix[];
  /**
   * s3:ListBucket on the bucket: without it S3 answers HeadObject of a missing key with 403 instead
   * of 404, and "not uploaded yet" could not be told from a real failure
   */
  listObjects?: boolean;
}

export interface DataResources {
  table: ITable;
  bucket: IBucket;
  workQueue: IQueue;
}

export const NO_ACCESS: DataAccess = { table: 'none', enqueue: false, writeObjects: [], readObjects: [] };

/**
 * Least privilege per route handler, from what each handler's code path calls.
 * Handlers missing here fall back to `fallbackAccess` and are flagged at synth and by the tests.
 */
export const HANDLER_ACCESS: { readonly [K in HandlerName]?: DataAccess } = {
  // Every API-key route updates counters (rate limits, polling) and the throttled `last_used_at`;
  // POST routes also write Idempotency-Key records.
  // admission transaction (consumes upload refs), multipart inputs, HEAD of uploaded objects,
  // the work message; presents the job (signs result URLs)
  'create-job': { table: 'readwrite', enqueue: true, writeObjects: ['inputs'], readObjects: ['uploads', 'outputs'], listObjects: true },
  // records the upload ref, signs a PUT under uploads/
  'create-upload': { table: 'readwrite', enqueue: false, writeObjects: ['uploads'], readObjects: [] },
  // authenticate (plus the polling counter), read the job, sign result URLs
  'get-job': { table: 'count', enqueue: false, writeObjects: [], readObjects: ['outputs'] },
  'list-jobs': { table: 'count', enqueue: false, writeObjects: [], readObjects: ['outputs'] },
  // the cancel transaction releases the reservation; nothing is enqueued
  'cancel-job': { table: 'readwrite', enqueue: false, writeObjects: [], readObjects: ['outputs'] },
  // authenticate only; the catalogue is code
  'list-endpoints': { table: 'count', enqueue: false, writeObjects: [], readObjects: [] },
  // generated from code: no data access at all
  'get-openapi': NO_ACCESS,
  'get-error-doc': NO_ACCESS,
  // management surface (JWT): reads of the organisation's records
  'get-jwks': NO_ACCESS,
  'get-organization': { table: 'read', enqueue: false, writeObjects: [], readObjects: [] },
  'list-api-keys': { table: 'read', enqueue: false, writeObjects: [], readObjects: [] },
  'list-usage': { table: 'read', enqueue: false, writeObjects: [], readObjects: [] },
  'list-ledger': { table: 'read', enqueue: false, writeObjects: [], readObjects: [] },
  // they present jobs, which signs result URLs
  'list-organization-jobs': { table: 'read', enqueue: false, writeObjects: [], readObjects: ['outputs'] },
  'get-organization-job': { table: 'read', enqueue: false, writeObjects: [], readObjects: ['outputs'] },
  // transactions over the key, its secrets and its pointer item
  'create-api-key': { table: 'readwrite', enqueue: false, writeObjects: [], readObjects: [] },
  'revoke-api-key': { table: 'readwrite', enqueue: false, writeObjects: [], readObjects: [] },
  'rotate-api-key': { table: 'readwrite', enqueue: false, writeObjects: [], readObjects: [] },
  // Idempotency-Key records, the provider customer id, deposits
  'create-checkout-session': { table: 'readwrite', enqueue: false, writeObjects: [], readObjects: [] },
  'create-portal-session': { table: 'readwrite', enqueue: false, writeObjects: [], readObjects: [] },
  'create-test-credits': { table: 'readwrite', enqueue: false, writeObjects: [], readObjects: [] },
  // the exactly-once deposit transaction
  'receive-billing-event': { table: 'readwrite', enqueue: false, writeObjects: [], readObjects: [] },
  // the settlement transaction of a live job; HEAD of the produced files the plane wrote under
  // outputs/ (ListBucket, so a missing file is a 404 and a 400 for the plane, not a 403)
  'receive-completion': { table: 'readwrite', enqueue: false, writeObjects: [], readObjects: ['outputs'], listObjects: true },
  // the local payment provider's pages (deployed only with PAYMENT_PROVIDER=local, for LocalStack runs)
  'local-checkout-page': NO_ACCESS,
  'local-checkout-pay': NO_ACCESS,
  'local-portal-page': { table: 'read', enqueue: false, writeObjects: [], readObjects: [] },
};

/** Consumer of the work queue: settles jobs, stores result files (the event source adds consume rights). */
export const CONSUMER_ACCESS: DataAccess = { table: 'readwrite', enqueue: false, writeObjects: ['outputs'], readObjects: [] };
/** Sweeper: expires and re-drives jobs from the table. */
export const SWEEPER_ACCESS: DataAccess = { table: 'readwrite', enqueue: true, writeObjects: [], readObjects: [] };

/** For a handler nobody declared yet: public routes get nothing, authenticated ones the table only. */
export function fallbackAccess(route: RouteDefinition): DataAccess {
  return route.auth === 'none' ? NO_ACCESS : { ...NO_ACCESS, table: 'readwrite' };
}

export function routeAccess(route: RouteDefinition): { access: DataAccess; declared: boolean } {
  const declared = HANDLER_ACCESS[route.handler];
  return declared ? { access: declared, declared: true } : { access: fallbackAccess(route), declared: false };
}

export function grantDataAccess(fn: IFunction, resources: DataResources, access: DataAccess): void {
  if (access.table === 'read' || access.table === 'count') resources.table.grantReadData(fn);
  if (access.table === 'count') resources.table.grant(fn, 'dynamodb:UpdateItem');
  if (access.table === 'readwrite') resources.table.grantReadWriteData(fn);
  if (access.table !== 'none') {
    acknowledgeWildcard(fn, resources.table, '/index/*', 'Queries need the GSIs (gsi1 to gsi3) by ARN; `<table>/index/*` names exactly the indexes of this one table.');
  }
  if (access.enqueue) resources.workQueue.grantSendMessages(fn);

  const objects = (prefixes: readonly ObjectPrefix[]) => prefixes.map((p) => resources.bucket.arnForObjects(`${OBJECT_PREFIXES[p]}*`));
  if (access.writeObjects.length) fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: objects(access.writeObjects) }));
  if (access.readObjects.length) fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: objects(access.readObjects) }));
  if (access.listObjects) fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [resources.bucket.bucketArn] }));
  for (const prefix of new Set([...access.writeObjects, ...access.readObjects])) {
    acknowledgeWildcard(
      fn,
      resources.bucket,
      `/${OBJECT_PREFIXES[prefix]}*`,
      `Object keys carry organisation and job ids chosen at run time; access is confined to the ${OBJECT_PREFIXES[prefix]} prefix of the one bucket.`,
    );
  }
}

/**
 * Acknowledges cdk-nag's IAM5 finding for exactly one wildcard resource (`<Logical.Arn><suffix>`)
 * on this function's role, so any other wildcard still fails the synth.
 */
function acknowledgeWildcard(fn: IFunction, target: IConstruct, suffix: string, reason: string): void {
  const resource = target.node.defaultChild;
  if (!fn.role || !CfnResource.isCfnResource(resource)) return;
  const logicalId: unknown = Stack.of(resource).resolve(resource.logicalId);
  Validations.of(fn.role).acknowledge({ id: `AwsSolutions-IAM5[Resource::<${String(logicalId)}.Arn>${suffix}]`, reason });
}
