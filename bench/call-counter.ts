import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { S3Client } from '@aws-sdk/client-s3';

export type CallCounts = Record<string, number>;

/** Counts every SDK command a client sends, by service and command name. */
type AnyClient = DynamoDBClient | SQSClient | S3Client;
type Stack = {
  add(middleware: (next: (args: unknown) => Promise<unknown>, context: unknown) => (args: unknown) => Promise<unknown>, options: { step: 'initialize'; name: string }): void;
};

let counters = 0;

export function countCalls(service: string, client: AnyClient, sink: () => CallCounts): void {
  (client.middlewareStack as unknown as Stack).add(
    (next, context) => async (args) => {
      const name = `${service}.${(context as { commandName?: string }).commandName ?? 'unknown'}`;
      const counts = sink();
      counts[name] = (counts[name] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: `count-${service}-calls-${(counters += 1)}` },
  );
}

export function perJob(counts: CallCounts, jobs: number): Record<string, string> {
  return Object.fromEntries(
    Object.entries(counts)
      .sort()
      .map(([name, n]) => [name, (n / jobs).toFixed(2)]),
  );
}
