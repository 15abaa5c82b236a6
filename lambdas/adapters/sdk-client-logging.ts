/**
 * Takes the SDK's per-call logger middleware off a client. It logs to the client's logger, which we
 * never set (a no-op), yet it builds each log line first: it walks every call's input and output
 * against the operation's schema to redact sensitive members, on the hot path, for nothing. Our
 * own logs record calls where they matter (docs/operations.md). Call it before the client's first
 * send: a client that caches its middleware stack keeps the stack it resolved then.
 */
export function withoutCallLogging<T extends { middlewareStack: { remove(name: string): boolean } }>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
