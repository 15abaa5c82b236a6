import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OBJECT_BUCKET_CORS } from '../../lib/object-bucket-cors.js';
import type { QueueTransport } from '../queue-loop.js';
import { authenticateS3Request, s3ErrorDocument } from './s3-request-auth.js';

/** The credentials every local client signs with (the local runtime, the admin tool, the assembly's functions). */
export const LOCAL_AWS_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/**
 * The credentials of a local account of its own. DynamoDB Local (without `-sharedDb`) keeps a
 * database per access key, as AWS keeps tables per account: runtimes that share one DynamoDB Local
 * and sign as different accounts each read a stream of their own table's records only.
 */
export function localAccountCredentials(account: string): { accessKeyId: string; secretAccessKey: string } {
  // DynamoDB Local refuses a key of anything but letters and digits (UnrecognizedClientException)
  if (!/^[A-Za-z0-9]+$/.test(account)) throw new Error(`a local account is letters and digits: ${account}`);
  return {
    accessKeyId: `${LOCAL_AWS_CREDENTIALS.accessKeyId}${account}`,
    secretAccessKey: LOCAL_AWS_CREDENTIALS.secretAccessKey,
  };
}

/** The local key and every local account's key sign with the local secret. */
function localSecretOf(accessKeyId: string): string | undefined {
  const local = LOCAL_AWS_CREDENTIALS.accessKeyId;
  return accessKeyId.startsWith(local) ? LOCAL_AWS_CREDENTIALS.secretAccessKey : undefined;
}

export interface ObjectAndQueueServer {
  endpoint: string;
  /** the queues' receive, delete, visibility and send calls made in process, for a runtime that runs beside the stand-in */
  queues: QueueTransport;
  stop(): Promise<void>;
}

type SqsAction = (body: object, store: object) => unknown;

interface StoredObject {
  key: string;
  body: Buffer;
  contentType: string;
  metadata: Record<string, string>;
}

interface HookableApp {
  addHook(
    name: 'onRequest' | 'preHandler',
    hook: (
      request: {
        method: string;
        url: string;
        body?: unknown;
        raw: { url?: string; headers: Record<string, string | string[] | undefined> };
      },
      reply: {
        code(status: number): HookReply;
        header(name: string, value: string): HookReply;
        send(body?: string): unknown;
      },
    ) => Promise<unknown>,
  ): void;
}
interface HookReply {
  code(status: number): HookReply;
  header(name: string, value: string): HookReply;
  send(body?: string): unknown;
}

interface S3StoreLike {
  buckets: Map<string, Map<string, StoredObject>>;
  createBucket(name: string): void;
  putObject(
    bucket: string,
    key: string,
    body: Buffer,
    contentType?: string,
    metadata?: Record<string, string>,
  ): StoredObject;
  deleteObject(bucket: string, key: string): void;
  completeMultipartUpload(uploadId: string, parts: unknown): StoredObject & { bucket?: string };
}

type Constructor<T> = new () => T;

/** Where a package is installed; found without `resolve`, which a package's `exports` may forbid. */
function packageDirectory(name: string): string {
  const candidates = createRequire(import.meta.url).resolve.paths(name) ?? [];
  const found = candidates.map((dir) => join(dir, name)).find((dir) => existsSync(join(dir, 'package.json')));
  if (!found) throw new Error(`package ${name} is not installed`);
  return found;
}

/** fauxqs exports only its server; its stores are loaded by file so the S3 store can be persisted. */
async function loadFauxqs() {
  const root = join(packageDirectory('fauxqs'), 'dist');
  const load = (path: string) => import(pathToFileURL(join(root, path)).href);
  const [app, s3, sqs, sns, receive, remove, changeVisibility, send] = await Promise.all(
    [
      'app.js',
      's3/s3Store.js',
      'sqs/sqsStore.js',
      'sns/snsStore.js',
      'sqs/actions/receiveMessage.js',
      'sqs/actions/deleteMessage.js',
      'sqs/actions/changeMessageVisibility.js',
      'sqs/actions/sendMessage.js',
    ].map(load),
  );
  return {
    buildApp: app.buildApp as (
      options: object,
    ) => HookableApp & { listen(options: { port: number; host: string }): Promise<string>; close(): Promise<void> },
    S3Store: s3.S3Store as Constructor<S3StoreLike>,
    SqsStore: sqs.SqsStore as Constructor<object>,
    SnsStore: sns.SnsStore as Constructor<object>,
    // the very functions its HTTP routes call with the request's JSON body
    sqsActions: {
      receive: receive.receiveMessage as SqsAction,
      remove: remove.deleteMessage as SqsAction,
      changeVisibility: changeVisibility.changeMessageVisibility as SqsAction,
      send: send.sendMessage as SqsAction,
    },
  };
}

const fileName = (key: string) => createHash('sha256').update(key).digest('hex');

/** Writes every object through to `dir`, and loads them back at start, so a restart keeps uploads and results. */
function persistent(S3Store: Constructor<S3StoreLike>, dir: string): S3StoreLike {
  const store = new S3Store();
  const bucketDir = (bucket: string) => join(dir, encodeURIComponent(bucket));
  const save = (bucket: string, object: StoredObject) => {
    const path = join(bucketDir(bucket), fileName(object.key));
    writeFileSync(`${path}.bin`, object.body);
    writeFileSync(
      `${path}.json`,
      JSON.stringify({ key: object.key, contentType: object.contentType, metadata: object.metadata }),
    );
  };
  const createBucket = store.createBucket.bind(store);
  const putObject = store.putObject.bind(store);
  const deleteObject = store.deleteObject.bind(store);
  const complete = store.completeMultipartUpload.bind(store);
  store.createBucket = (name) => {
    mkdirSync(bucketDir(name), { recursive: true });
    createBucket(name);
  };
  store.putObject = (bucket, key, body, contentType, metadata) => {
    const object = putObject(bucket, key, body, contentType, metadata);
    save(bucket, object);
    return object;
  };
  store.deleteObject = (bucket, key) => {
    deleteObject(bucket, key);
    for (const ext of ['bin', 'json']) rmSync(join(bucketDir(bucket), `${fileName(key)}.${ext}`), { force: true });
  };
  store.completeMultipartUpload = (uploadId, parts) => {
    const object = complete(uploadId, parts);
    for (const [bucket, objects] of store.buckets) if (objects.get(object.key) === object) save(bucket, object);
    return object;
  };
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(dir)) {
    const bucket = decodeURIComponent(entry);
    createBucket(bucket);
    for (const file of readdirSync(join(dir, entry)).filter((name) => name.endsWith('.json'))) {
      const meta = JSON.parse(readFileSync(join(dir, entry, file), 'utf8')) as Omit<StoredObject, 'body'>;
      const body = join(dir, entry, file.replace(/\.json$/, '.bin'));
      if (existsSync(body)) putObject(bucket, meta.key, readFileSync(body), meta.contentType, meta.metadata);
    }
  }
  return store;
}

/** fauxqs' own routes: SQS, SNS and STS (`POST /`, by protocol), its health check and queue inspection. */
function isS3Request(method: string, path: string): boolean {
  return !((method === 'POST' && path === '/') || path === '/health' || path.startsWith('/_fauxqs/'));
}

/**
 * fauxqs verifies no signature, so every S3 request is authenticated first, as S3 does it: a
 * presigned URL or a signed `Authorization` header from a known key, in its lifetime, or S3's 403
 * (or 400) with its XML error, and never the object (local/stand-ins/s3-request-auth.ts).
 */
function requireS3Signatures(app: HookableApp, secretOf: (accessKeyId: string) => string | undefined): void {
  app.addHook('onRequest', async (request, reply) => {
    const rawUrl = request.raw.url ?? request.url;
    if (!isS3Request(request.method, rawUrl.split('?')[0]!)) return;
    const verdict = authenticateS3Request(
      { method: request.method, rawUrl, headers: request.raw.headers },
      {
        secretOf,
        nowMs: Date.now(),
        presignedFutureSkewMs: Number.POSITIVE_INFINITY,
      },
    );
    if (verdict.ok) return;
    const error = s3ErrorDocument(verdict);
    reply
      .code(verdict.status)
      .header('x-amz-request-id', error.requestId)
      .header('x-amz-id-2', error.hostId)
      .header('content-type', 'application/xml');
    return reply.send(request.method === 'HEAD' ? undefined : error.body);
  });
}

/**
 * S3's CORS, for the one rule the object bucket has (lib/object-bucket-cors.ts): a preflight
 * (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered by S3 itself, unsigned,
 * 200 with the rule's headers when the rule allows the method and every requested header, else 403
 * `AccessForbidden`; an actual request from an allowed origin with an allowed method carries
 * `Access-Control-Allow-Origin`, so the browser hands its answer to the page.
 */
function answerCors(app: HookableApp): void {
  const rule = OBJECT_BUCKET_CORS;
  const methods: readonly string[] = rule.allowedMethods;
  const allowedHeaders: readonly string[] = rule.allowedHeaders;
  app.addHook('onRequest', async (request, reply) => {
    const rawUrl = request.raw.url ?? request.url;
    if (!isS3Request(request.method, rawUrl.split('?')[0]!)) return;
    const origin = request.raw.headers.origin;
    if (typeof origin !== 'string') return;
    if (request.method === 'OPTIONS') {
      const method = request.raw.headers['access-control-request-method'];
      const asked = String(request.raw.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean);
      const allowed =
        typeof method === 'string' && methods.includes(method) && asked.every((name) => allowedHeaders.includes(name));
      if (!allowed)
        return reply
          .code(403)
          .header('content-type', 'application/xml')
          .send(
            '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessForbidden</Code><Message>CORSResponse: This CORS request is not allowed.</Message><Method>OPTIONS</Method><ResourceType>OBJECT</ResourceType></Error>',
          );
      return reply
        .code(200)
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', methods.join(', '))
        .header('access-control-allow-headers', asked.join(', '))
        .header('access-control-max-age', String(rule.maxAgeSeconds))
        .header('vary', 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method')
        .send();
    }
    if (methods.includes(request.method))
      reply
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', methods.join(', '))
        .header('access-control-max-age', String(rule.maxAgeSeconds))
        .header('vary', 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method');
  });
}

/** SQS's longest per-message delay: fauxqs takes any, SQS refuses more with `InvalidParameterValue`. */
const MAX_DELAY_SECONDS = 900;

/** Thrown as fauxqs throws its own SQS errors, so both paths answer as SQS does. */
class InvalidParameterValue extends Error {
  readonly code = 'InvalidParameterValue';
  readonly statusCode = 400;
  override readonly name = 'InvalidParameterValue';
}

function refuseDelayOutOfRange(input: { DelaySeconds?: unknown }): void {
  const delay = input.DelaySeconds;
  if (delay === undefined) return;
  if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_SECONDS)
    throw new InvalidParameterValue(
      `Value ${String(delay)} for parameter DelaySeconds is invalid. Reason: must be >= 0 and <= ${MAX_DELAY_SECONDS}.`,
    );
}

/** SQS's delay bound on `SendMessage` and every entry of `SendMessageBatch` over HTTP, answered in SQS's JSON error. */
function refuseDelaysOutOfRange(app: HookableApp): void {
  app.addHook('preHandler', async (request, reply) => {
    const target = request.raw.headers['x-amz-target'];
    if (target !== 'AmazonSQS.SendMessage' && target !== 'AmazonSQS.SendMessageBatch') return;
    const body = (request.body ?? {}) as { DelaySeconds?: unknown; Entries?: Array<{ DelaySeconds?: unknown }> };
    try {
      for (const entry of target === 'AmazonSQS.SendMessage' ? [body] : (body.Entries ?? []))
        refuseDelayOutOfRange(entry);
    } catch (error) {
      return reply
        .code(400)
        .header('content-type', 'application/x-amz-json-1.0')
        .header('x-amzn-query-error', 'AWS.SimpleQueueService.InvalidParameterValue;Sender')
        .send(JSON.stringify({ __type: 'com.amazonaws.sqs#InvalidParameterValue', message: (error as Error).message }));
    }
  });
}

/**
 * fauxqs, in-process: S3 (path-style) and SQS on one loopback port. With `dataDir`, S3 objects
 * survive restarts; queues stay in memory (the runtime re-drives unfinished jobs at start). S3
 * requests must be signed by the local key or a local account's, as S3 wants a known key's signature.
 */
export async function startObjectAndQueueServer(
  options: { port?: number; dataDir?: string } = {},
): Promise<ObjectAndQueueServer> {
  const fauxqs = await loadFauxqs();
  const s3Store = options.dataDir ? persistent(fauxqs.S3Store, options.dataDir) : new fauxqs.S3Store();
  const sqsStore = new fauxqs.SqsStore() as { host?: string };
  // queue URLs on the address the queue was created through (http://127.0.0.1:<port>/…), not
  // fauxqs' default sqs.<region>.localhost, which does not resolve: like AWS's, they can then be
  // used as they are, and an SDK client configured only by AWS_ENDPOINT_URL_SQS (which sends to
  // the queue URL's host) reaches them
  sqsStore.host = '';
  const app = fauxqs.buildApp({ logger: false, stores: { s3Store, sqsStore, snsStore: new fauxqs.SnsStore() } });
  refuseDelaysOutOfRange(app);
  // before the signature check: S3 answers a preflight, which carries no signature, by CORS alone
  answerCors(app);
  requireS3Signatures(app, localSecretOf);
  const address = await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const { receive, remove, changeVisibility, send } = fauxqs.sqsActions;
  const queues: QueueTransport = {
    receive: async (input) => (await receive(input, sqsStore)) as Awaited<ReturnType<QueueTransport['receive']>>,
    delete: async (input) => remove(input, sqsStore),
    changeVisibility: async (input) => changeVisibility(input, sqsStore),
    send: async (input) => {
      refuseDelayOutOfRange(input);
      return send(input, sqsStore);
    },
  };
  return { endpoint: `http://127.0.0.1:${new URL(address).port}`, queues, stop: () => app.close() };
}
