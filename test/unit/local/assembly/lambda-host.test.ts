import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type LambdaFunction, LambdaHost } from '../../../../local/assembly/lambda-host.js';

/** Bundles as the synth stages them: a directory per asset with an ES module exporting the handler. */
const root = mkdtempSync(join(tmpdir(), 'ais-lambda-host-'));
function asset(name: string, source: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.mjs'), source);
  return dir;
}

const counting = asset(
  'counting',
  `import { threadId } from 'node:worker_threads';
class InjectedFault extends Error { name = 'InjectedFault'; }
let calls = 0;
export const handler = async (event, context) => {
  calls += 1;
  await new Promise((resolve) => setTimeout(resolve, event.holdMs ?? 0));
  if (event.fail) throw new InjectedFault('asked to fail');
  if (event.rejectLater) setTimeout(() => Promise.reject(new Error('nobody awaited this')), 0);
  if (event.rejectLater) await new Promise((resolve) => setTimeout(resolve, 200));
  return { calls, threadId, greeting: process.env.GREETING ?? null, name: context.functionName, remainingMs: context.getRemainingTimeInMillis(), echo: event.echo ?? null };
};`,
);
// the faults these bundles throw are named as the tests' own (lambdas/domain/kernel/faults.ts): logged as WARN, no stack
const broken = asset(
  'broken',
  `class InjectedFault extends Error { name = 'InjectedFault'; }\nthrow new InjectedFault('cannot load');\nexport const handler = async () => 1;`,
);

const fn = (name: string, overrides: Partial<LambdaFunction> = {}): LambdaFunction => ({
  name,
  arn: `arn:aws:lambda:us-east-1:000000000000:function:${name}`,
  codeDirectory: counting,
  handler: 'index.handler',
  runtime: 'nodejs22.x',
  timeoutSeconds: 5,
  memoryMb: 128,
  environment: {},
  ...overrides,
});

const host = new LambdaHost(
  [
    fn('hello', { environment: { GREETING: 'hello' } }),
    fn('bonjour', { environment: { GREETING: 'bonjour' } }),
    fn('short', { timeoutSeconds: 1 }),
    fn('single'),
    fn('broken', { codeDirectory: broken }),
  ],
  { baseEnvironment: { PATH: process.env.PATH ?? '' }, maxInstancesPerFunction: 2 },
);
afterAll(async () => {
  await host.stop();
  rmSync(root, { recursive: true, force: true });
});

const payload = (outcome: Awaited<ReturnType<LambdaHost['invoke']>>) => {
  if (!outcome.ok) throw new Error(`${outcome.error.errorType}: ${outcome.error.errorMessage}`);
  return outcome.payload as {
    calls: number;
    threadId: number;
    greeting: string | null;
    name: string;
    remainingMs: number;
    echo: unknown;
  };
};

/** What the instances write to stderr (a worker's console reaches the parent's stream), without passing it on. */
function recordStderr(): { text: () => string; stop: () => void } {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  return { text: () => chunks.join(''), stop: () => spy.mockRestore() };
}

describe('the Lambda host that runs the bundles', () => {
  it("gives each function its own environment, even where functions share a bundle, and passes event and context as Lambda's runtime does", async () => {
    const hello = payload(await host.invoke('hello', { echo: { nested: [1, 'two'] } }));
    const bonjour = payload(await host.invoke('arn:aws:lambda:us-east-1:000000000000:function:bonjour:$LATEST', {}));
    expect(hello).toMatchObject({ greeting: 'hello', name: 'hello', echo: { nested: [1, 'two'] } });
    expect(hello.remainingMs).toBeGreaterThan(4000);
    expect(bonjour.greeting).toBe('bonjour');
    expect(bonjour.threadId).not.toBe(hello.threadId);
  });

  it('keeps a warm instance (module state survives) and reports a thrown error without losing it', async () => {
    const first = payload(await host.invoke('hello', {}));
    const written = recordStderr();
    const failed = await host.invoke('hello', { fail: true });
    expect(failed).toEqual({ ok: false, error: { errorType: 'InjectedFault', errorMessage: 'asked to fail' } });
    // a fault thrown on purpose is logged as the expected event it is, not as Lambda's ERROR with a stack
    await expect.poll(() => written.text()).toContain('"message":"injected fault"');
    written.stop();
    expect(JSON.parse(written.text().trim())).toMatchObject({
      level: 'WARN',
      during: 'Invoke Error',
      function_name: 'hello',
      fault: 'asked to fail',
    });
    expect(written.text()).not.toContain('"level":"ERROR"');
    const after = payload(await host.invoke('hello', {}));
    expect(after.threadId).toBe(first.threadId);
    expect(after.calls).toBe(first.calls + 2);
  });

  it('runs one invocation per instance: concurrent calls get instances of their own, up to the limit, then wait', async () => {
    const [a, b, c] = (await Promise.all([0, 1, 2].map(() => host.invoke('single', { holdMs: 300 })))).map(payload);
    expect(new Set([a!.threadId, b!.threadId, c!.threadId]).size).toBe(2);
    expect([a!.calls, b!.calls, c!.calls].sort()).toEqual([1, 1, 2]);
  });

  it('ends an instance whose invocation outlives the timeout, as Lambda does, and cold-starts the next', async () => {
    const warm = payload(await host.invoke('short', {}));
    const timedOut = await host.invoke('short', { holdMs: 3000 });
    expect(timedOut.ok).toBe(false);
    expect(!timedOut.ok && timedOut.error).toMatchObject({
      errorType: 'Sandbox.Timedout',
      errorMessage: expect.stringMatching(/Task timed out after 1\.\d\d seconds/),
    });
    const fresh = payload(await host.invoke('short', {}));
    expect(fresh.threadId).not.toBe(warm.threadId);
    expect(fresh.calls).toBe(1);
  });

  it('ends an instance on an unhandled rejection, failing the invocation that was running', async () => {
    const before = payload(await host.invoke('bonjour', {}));
    const crashed = await host.invoke('bonjour', { rejectLater: true });
    expect(crashed.ok).toBe(false);
    const after = payload(await host.invoke('bonjour', {}));
    expect(after.threadId).not.toBe(before.threadId);
  });

  it('reports a bundle that fails to load, an unknown function and a runtime it does not run', async () => {
    expect(await host.invoke('broken', {})).toEqual({
      ok: false,
      error: { errorType: 'Runtime.ImportModuleError', errorMessage: 'cannot load' },
    });
    expect(await host.invoke('nobody', {})).toMatchObject({
      ok: false,
      error: { errorType: 'ResourceNotFoundException' },
    });
    const python = new LambdaHost([fn('py', { runtime: 'python3.12' })], { baseEnvironment: {} });
    expect(await python.invoke('py', {})).toMatchObject({ ok: false, error: { errorType: 'Runtime.Unsupported' } });
  });
});
