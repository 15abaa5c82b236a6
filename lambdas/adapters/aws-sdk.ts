import { createRequire as requireRelativeTo } from 'node:module';

/**
 * The AWS SDK packages, loaded with `require`. They are CommonJS: an ES `import` of one makes Node
 * first scan the package's source, and every file it re-exports, for export names, and that scan
 * was about a third of each Lambda's cold import (`docs/internals/benchmarks.md`, "SDK by require"). Types
 * still come from the packages' declarations, and Node keeps one instance of each package, so
 * `instanceof` on SDK errors holds whichever way a caller loaded it.
 */
const requireCommonJs = requireRelativeTo(import.meta.url);

/** Every Lambda talks to DynamoDB: loaded with the bundle. */
export const dynamodbSdk: typeof import('@aws-sdk/client-dynamodb') = requireCommonJs('@aws-sdk/client-dynamodb');
export const documentSdk: typeof import('@aws-sdk/lib-dynamodb') = requireCommonJs('@aws-sdk/lib-dynamodb');
/** Already loaded by `lib-dynamodb`, which marshals with it. */
export const dynamodbUtil: typeof import('@aws-sdk/util-dynamodb') = requireCommonJs('@aws-sdk/util-dynamodb');

/** The rest on first use: most Lambdas never call them. */
export const s3Sdk = (): typeof import('@aws-sdk/client-s3') => requireCommonJs('@aws-sdk/client-s3');
export const presignerSdk = (): typeof import('@aws-sdk/s3-request-presigner') =>
  requireCommonJs('@aws-sdk/s3-request-presigner');
export const sqsSdk = (): typeof import('@aws-sdk/client-sqs') => requireCommonJs('@aws-sdk/client-sqs');
export const sfnSdk = (): typeof import('@aws-sdk/client-sfn') => requireCommonJs('@aws-sdk/client-sfn');
export const cognitoSdk = (): typeof import('@aws-sdk/client-cognito-identity-provider') =>
  requireCommonJs('@aws-sdk/client-cognito-identity-provider');

/** A value made on first use and shared after: SDK modules and clients that many Lambdas never need. */
export function lazy<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= make().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}

/**
 * Takes the SDK's per-call logger middleware off a client. It logs to the client's logger, which we
 * never set (a no-op), yet it builds each log line first: it walks every call's input and output
 * against the operation's schema to redact sensitive members, on the hot path, for nothing. Our
 * own logs record calls where they matter (docs/internals/operations.md). Call it before the client's first
 * send: a client that caches its middleware stack keeps the stack it resolved then.
 */
export function withoutCallLogging<T extends { middlewareStack: { remove(name: string): boolean } }>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
