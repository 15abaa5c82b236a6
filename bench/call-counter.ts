import type { SdkClient, SdkService } from '../lambdas/composition/container.js';

export type CallCounts = Record<string, number>;

interface SdkCall {
  service: SdkService;
  command: string;
  input: Record<string, unknown>;
}
type Result = { output: Record<string, unknown> };
type Around = (call: SdkCall, next: () => Promise<Result>) => Promise<Result>;

const arounds = new Set<Around>();

type Stack = {
  add(
    middleware: (
      next: (args: { input: Record<string, unknown> }) => Promise<Result>,
      context: { commandName?: string },
    ) => (args: { input: Record<string, unknown> }) => Promise<Result>,
    options: { step: 'initialize'; name: string },
  ): void;
};

/**
 * Pass as the runtime's `instrumentClient`: one middleware on each SDK client, added before the
 * client sends anything (a client that caches its middleware stack would ignore middleware added
 * later), running whatever the benchmarks register with `aroundCalls` at that moment.
 */
export function tapClient(service: SdkService, client: SdkClient): void {
  (client.middlewareStack as unknown as Stack).add(
    (next, context) => async (args) => {
      const call = { service, command: context.commandName ?? 'unknown', input: args.input };
      const run = [...arounds].reduceRight<() => Promise<Result>>(
        (inner, around) => () => around(call, inner),
        () => next(args),
      );
      return run();
    },
    { step: 'initialize', name: 'bench-tap' },
  );
}

/** Runs `around` on every SDK call of a tapped client until the returned function is called. */
export function aroundCalls(around: Around): () => void {
  arounds.add(around);
  return () => arounds.delete(around);
}

/** Counts every SDK command a tapped client of `service` sends, by `label` and command name. */
export function countCalls(service: SdkService, sink: () => CallCounts, label: string = service): void {
  aroundCalls((call, next) => {
    if (call.service === service) {
      const name = `${label}.${call.command}`;
      const counts = sink();
      counts[name] = (counts[name] ?? 0) + 1;
    }
    return next();
  });
}

export function perJob(counts: CallCounts, jobs: number): Record<string, string> {
  return Object.fromEntries(
    Object.entries(counts)
      .sort()
      .map(([name, n]) => [name, (n / jobs).toFixed(2)]),
  );
}
