import { Duration, Validations } from 'aws-cdk-lib';
import { FunctionUrlAuthType } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { OCR_ASSETS_VARIABLE } from '../lambdas/planes/ocr/ocr-assets.js';
import { type DataResources, grantDataAccess } from './access.js';
import { QUEUE_CONCURRENCY } from './concurrency.js';
import { consumeQueue, serviceFunction } from './functions.js';
import { OCR_ASSETS_FOLDER, writeOcrAssets } from './ocr-assets.js';

/** Long enough for a sandbox model, its files and a callback retried with backoff; the queue's visibility is six times it. */
export const REFERENCE_PLANE_TIMEOUT = Duration.seconds(60);

/**
 * The reference plane's memory: 1769 MB is where Lambda gives a function one full vCPU, and OCR is
 * CPU-bound on one thread (tesseract's wasm), so less memory means proportionally slower reads
 * and more does not make one read faster (docs/internals/inference-plane.md, "Sizing").
 */
export const OCR_PLANE_MEMORY_MB = 1769;
/** One submission per invocation for OCR: reads are serialised on the process's one engine, so concurrency, not batching, spreads them. */
export const OCR_PLANE_BATCH_SIZE = 1;

export interface ReferencePlaneProps extends DataResources {
  /** the shared secret: it verifies submissions with it and signs callbacks with it */
  secret: ISecret;
  /** `reference` (`-c referencePlane=true`): computes what it declares; `fixture` (`-c fixturePlane=true`): fixtures for wiring tests */
  kind: 'reference' | 'fixture';
}

/**
 * The callback secret a stack with the reference plane generates when no
 * `inferenceCallbackSecretName` is given, under `name`: the plane and the service share it, nobody
 * else reads it. Functions import it by that name, as they would a named one.
 */
export function generatedCallbackSecret(scope: Construct, name: string): { secret: Secret; name: string } {
  const secret = new Secret(scope, 'GeneratedInferenceCallbackSecret', {
    secretName: name,
    description: 'Shared by the service and its inference plane: signs job submissions and completion callbacks',
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  });
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'A shared HMAC key between the service and the reference inference plane of a staging stack; functions re-read it within five minutes, so it is rotated by putting a new value, without a rotation Lambda.',
  });
  return { secret, name };
}

/**
 * A bundled inference plane as a deployable service: the reference plane (`-c referencePlane=true`),
 * or the fixture plane (`-c fixturePlane=true`, wiring tests only), so a stack settles live jobs end to end: a function URL that takes submissions over HTTP
 * like any real plane's endpoint (signature-checked, no IAM auth, as the service submits to any
 * plane), a queue, and the same function working each queued submission to its signed callback.
 * Its resources stay few: one function, its role, policy and log group, the URL and its
 * permission, the queue, its policy and the event source mapping.
 */
export class ReferencePlane extends Construct {
  readonly fn: NodejsFunction;
  readonly queue: Queue;
  /** where the workers submit live jobs (`INFERENCE_PLANE_URL`) */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ReferencePlaneProps) {
    super(scope, id);
    this.queue = new Queue(this, 'Submissions', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(REFERENCE_PLANE_TIMEOUT.toSeconds() * 6),
    });
    const noDeadLetters =
      'No dead-letter queue: a submission that keeps failing is not lost, the service submits an unanswered live job again after five minutes and expires it at its queue timeout.';
    Validations.of(this.queue).acknowledge(
      { id: 'AwsSolutions-SQS3', reason: noDeadLetters },
      { id: 'Serverless-SQSRedrivePolicy', reason: noDeadLetters },
    );
    const fixture = props.kind === 'fixture';
    this.fn = serviceFunction(this, 'Function', {
      name: `${props.kind}-inference-plane`,
      entry: `lambdas/workers/${props.kind}-plane.ts`,
      description: fixture
        ? 'Fixture inference plane (wiring tests only): takes signed submissions on its URL, answers with fixtures, reports signed completion callbacks'
        : 'Reference inference plane: takes signed submissions on its URL, computes what it declares, reports signed completion callbacks',
      timeout: REFERENCE_PLANE_TIMEOUT,
      environment: {
        PLANE_QUEUE_URL: this.queue.queueUrl,
        INFERENCE_CALLBACK_SECRET_ARN: props.secret.secretArn,
        ...(fixture ? {} : { [OCR_ASSETS_VARIABLE]: OCR_ASSETS_FOLDER }),
      },
      ...(fixture ? {} : { memorySize: OCR_PLANE_MEMORY_MB, addFiles: writeOcrAssets }),
    });
    this.queue.grantSendMessages(this.fn);
    props.secret.grantRead(this.fn);
    // reads the inputs it is sent (a passthrough result is a copy of one), writes what it produces
    grantDataAccess(this.fn, props, { table: 'none', readObjects: ['inputs', 'uploads'], writeObjects: ['outputs'] });
    consumeQueue(this.fn, this.queue, {
      batchSize: fixture ? 10 : OCR_PLANE_BATCH_SIZE,
      maxConcurrency: QUEUE_CONCURRENCY.referencePlane,
    });
    this.url = this.fn.addFunctionUrl({ authType: FunctionUrlAuthType.NONE }).url;
  }
}
