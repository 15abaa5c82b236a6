import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { TABLE_DEFINITION } from '../lambdas/adapters/dynamodb/table-definition.js';
import { STORAGE_RETENTION_DAYS } from '../lambdas/domain/erasure/retention-period.js';
import { OBJECT_BUCKET_CORS } from './object-bucket-cors.js';

/**
 * Object key prefixes the lambdas write under: multipart inputs (lambdas/domain/jobs/inputs.ts),
 * presigned uploads (lambdas/domain/jobs/uploads.ts) and produced result files (lambdas/sandbox/backend.ts).
 */
export const OBJECT_PREFIXES = { inputs: 'inputs/', uploads: 'uploads/', outputs: 'outputs/' } as const;

/**
 * The lifecycle backstop: no object outlives the longest storage retention an organisation can
 * have. Each organisation's own, shorter or not, is enforced by the retention worker (lib/retention.ts).
 */
export const OBJECT_RETENTION_DAYS = STORAGE_RETENTION_DAYS.max;

/**
 * The service's state: the one DynamoDB table (the source of truth for jobs, ledger and keys)
 * and the bucket holding uploaded inputs and produced result files.
 */
export class Data extends Construct {
  readonly table: Table;
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // grant S3 log delivery through a bucket policy instead of the legacy LogDelivery ACL
    // (must be set before any child construct exists)
    this.node.setContext(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_DEFINITION.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_DEFINITION.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // TTL only tidies up; code never relies on it for correctness (deletion lags up to 48 h)
      timeToLiveAttribute: TABLE_DEFINITION.ttlAttribute,
      // new jobs reach the work queues through this stream (lib/job-stream.ts)
      stream: StreamViewType[TABLE_DEFINITION.streamViewType],
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of TABLE_DEFINITION.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType[index.projection],
        ...('nonKeyAttributes' in index ? { nonKeyAttributes: [...index.nonKeyAttributes] } : {}),
      });
    }

    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.bucket = new Bucket(this, 'Objects', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'objects/',
      // browsers PUT uploads to presigned URLs (the dashboard's playground, customers' web apps)
      cors: [
        {
          allowedOrigins: [...OBJECT_BUCKET_CORS.allowedOrigins],
          allowedMethods: OBJECT_BUCKET_CORS.allowedMethods.map((method) => HttpMethods[method]),
          allowedHeaders: [...OBJECT_BUCKET_CORS.allowedHeaders],
          maxAge: OBJECT_BUCKET_CORS.maxAgeSeconds,
        },
      ],
      lifecycleRules: [
        { id: 'expire-inputs', prefix: OBJECT_PREFIXES.inputs, expiration: Duration.days(OBJECT_RETENTION_DAYS) },
        { id: 'expire-uploads', prefix: OBJECT_PREFIXES.uploads, expiration: Duration.days(OBJECT_RETENTION_DAYS) },
        { id: 'expire-outputs', prefix: OBJECT_PREFIXES.outputs, expiration: Duration.days(OBJECT_RETENTION_DAYS) },
        { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
