import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** A function of the assembly as its template declares it, with its environment resolved. */
export interface LambdaFunction {
  name: string;
  arn: string;
  /** the staged asset: what Lambda would unzip into /var/task */
  codeDirectory: string;
  /** `index.handler`: module file (without extension) and export */
  handler: string;
  runtime: string;
  timeoutSeconds: number;
  memoryMb: number;
  environment: Record<string, string>;
}

export type InvokeOutcome = { ok: true; payload: unknown } | { ok: false; error: LambdaError };

/** What Lambda reports for a failed invocation (and what Step Functions and API Gateway see). */
export interface LambdaError {
  errorType: string;
  errorMessage: string;
}

export interface LambdaHostOptions {
  /** what every function's environment starts from: region, credentials, stand-in endpoints */
  baseEnvironment: Record<string, string>;
  /** concurrent instances per function at most; further invocations wait for a free one */
  maxInstancesPerFunction?: number;
}

/**
 * The code that runs inside each instance: it imports the bundle the way the Node.js runtime
 * does (the handler module by file URL, no loader of ours), then runs one invocation at a time.
 * The event and the answer cross as JSON, as they do on Lambda.
 */
const INSTANCE_BOOTSTRAP = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const describe = (error) => ({
  errorType: (error && error.name) || 'Error',
  errorMessage: (error && error.message) || String(error),
  trace: error && error.stack ? String(error.stack).split('\\n') : [],
});
// a fault a test throws on purpose (an error named InjectedFault, as lambdas/domain/kernel/faults.ts names
// it) is the expected event it is: a WARN line without a stack, as logFailure writes it, never an ERROR
const report = (message, fields, error, described) => {
  if (error && error.name === 'InjectedFault')
    console.warn(JSON.stringify({ level: 'WARN', message: 'injected fault', timestamp: new Date().toISOString(), during: message, ...fields, fault: described.errorMessage }));
  else console.error(JSON.stringify({ level: 'ERROR', message, timestamp: new Date().toISOString(), ...fields, ...described }));
};
(async () => {
  let handler;
  try {
    const module = await import(pathToFileURL(workerData.file).href);
    handler = module[workerData.exportName];
    if (typeof handler !== 'function') throw Object.assign(new Error(workerData.file + ' exports no function ' + workerData.exportName), { name: 'Runtime.HandlerNotFound' });
  } catch (error) {
    const described = describe(error);
    if (described.errorType === 'Error' || described.errorType === 'InjectedFault') described.errorType = 'Runtime.ImportModuleError';
    report('Init Error', { file: workerData.file }, error, described);
    parentPort.postMessage({ type: 'init-error', error: { errorType: described.errorType, errorMessage: described.errorMessage } });
    return;
  }
  parentPort.postMessage({ type: 'ready' });
  parentPort.on('message', async ({ id, event, context }) => {
    const deadline = context.deadlineMs;
    const lambdaContext = {
      ...context,
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: () => undefined, fail: () => undefined, succeed: () => undefined,
    };
    try {
      const result = await new Promise((resolve, reject) => {
        const returned = handler(JSON.parse(event), lambdaContext, (error, value) => (error ? reject(error) : resolve(value)));
        if (returned && typeof returned.then === 'function') returned.then(resolve, reject);
      });
      parentPort.postMessage({ type: 'result', id, payload: result === undefined ? 'null' : JSON.stringify(result) });
    } catch (error) {
      const described = describe(error);
      report('Invoke Error', { function_name: context.functionName, request_id: context.awsRequestId }, error, described);
      parentPort.postMessage({ type: 'error', id, error: { errorType: described.errorType, errorMessage: described.errorMessage } });
    }
  });
})();
`;

interface Pending {
  resolve: (outcome: InvokeOutcome) => void;
  timer: NodeJS.Timeout;
}

/** One execution environment: a worker thread with its own module state and its own `process.env`. */
class Instance {
  readonly worker: Worker;
  readonly ready: Promise<LambdaError | null>;
  busy = false;
  dead = false;
  private current: { id: string; pending: Pending } | null = null;

  constructor(
    readonly fn: LambdaFunction,
    file: string,
    exportName: string,
    environment: Record<string, string>,
    private readonly onDeath: (instance: Instance) => void,
  ) {
    const sourceMaps = /--enable-source-maps\b/.test(environment.NODE_OPTIONS ?? '');
    this.worker = new Worker(INSTANCE_BOOTSTRAP, {
      eval: true,
      // the bundle runs on plain Node, like on Lambda: none of this process's loaders (tsx)
      execArgv: sourceMaps ? ['--enable-source-maps'] : [],
      env: environment,
      workerData: { file, exportName },
      resourceLimits: { maxOldGenerationSizeMb: fn.memoryMb },
    });
    this.ready = new Promise((resolve) => {
      this.worker.once('message', (message: { type: string; error?: LambdaError }) =>
        resolve(message.type === 'ready' ? null : message.error!),
      );
      this.worker.once('exit', () =>
        resolve({ errorType: 'Runtime.ExitError', errorMessage: `${fn.name}: the runtime exited during init` }),
      );
    });
    this.worker.on('message', (message: { type: string; id?: string; payload?: string; error?: LambdaError }) => {
      if (!this.current || message.id !== this.current.id) return;
      const { pending } = this.current;
      this.finish();
      pending.resolve(
        message.type === 'result'
          ? { ok: true, payload: JSON.parse(message.payload!) }
          : { ok: false, error: message.error! },
      );
    });
    // an uncaught exception or unhandled rejection ends the environment, as it does on Lambda
    this.worker.on('error', (error) =>
      this.die({
        errorType: error.name === 'Error' ? 'Runtime.UnhandledPromiseRejection' : error.name,
        errorMessage: error.message,
      }),
    );
    this.worker.on('exit', (code) =>
      this.die({ errorType: 'Runtime.ExitError', errorMessage: `${fn.name}: the runtime exited with code ${code}` }),
    );
  }

  run(event: unknown, requestId: string): Promise<InvokeOutcome> {
    const id = randomUUID();
    const startedMs = Date.now();
    const deadlineMs = startedMs + this.fn.timeoutSeconds * 1000;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const seconds = ((Date.now() - startedMs) / 1000).toFixed(2);
        this.die({
          errorType: 'Sandbox.Timedout',
          errorMessage: `${new Date().toISOString()} ${requestId} Task timed out after ${seconds} seconds`,
        });
      }, this.fn.timeoutSeconds * 1000);
      this.current = { id, pending: { resolve, timer } };
      this.worker.postMessage({
        id,
        event: JSON.stringify(event ?? null),
        context: {
          awsRequestId: requestId,
          functionName: this.fn.name,
          functionVersion: '$LATEST',
          invokedFunctionArn: this.fn.arn,
          memoryLimitInMB: String(this.fn.memoryMb),
          logGroupName: `/aws/lambda/${this.fn.name}`,
          logStreamName: 'local',
          deadlineMs,
        },
      });
    });
  }

  private finish(): void {
    if (this.current) clearTimeout(this.current.pending.timer);
    this.current = null;
  }

  die(error: LambdaError): void {
    if (this.dead) return;
    this.dead = true;
    const current = this.current;
    this.finish();
    current?.pending.resolve({ ok: false, error });
    void this.worker.terminate();
    this.onDeath(this);
  }
}

/**
 * Runs the functions of a cloud assembly from their bundles, as Lambda does: each instance is a
 * worker thread of its own (its module state, its environment, a heap capped at the function's
 * memory) created on the first invocation that finds no idle one (a cold start), and it serves
 * one invocation at a time; an invocation past the function's timeout, an uncaught exception or
 * an unhandled rejection ends that instance, and the next invocation gets a fresh one.
 */
export class LambdaHost {
  private readonly byName = new Map<string, LambdaFunction>();
  private readonly instances = new Map<string, Instance[]>();
  private readonly waiting = new Map<string, Array<() => void>>();
  private stopped = false;

  constructor(
    functions: readonly LambdaFunction[],
    private readonly options: LambdaHostOptions,
  ) {
    for (const fn of functions) this.byName.set(fn.name, fn);
  }

  get functions(): LambdaFunction[] {
    return [...this.byName.values()];
  }

  /** A function by name, ARN (with or without a qualifier) or partial ARN, as Lambda's `FunctionName` accepts. */
  functionOf(nameOrArn: string): LambdaFunction | undefined {
    const match = /^(?:arn:aws[\w-]*:lambda:[\w-]+:\d{12}:function:|\d{12}:function:)?([\w-]+)(?::[\w$-]+)?$/.exec(
      nameOrArn,
    );
    return match ? this.byName.get(match[1]!) : undefined;
  }

  async invoke(nameOrArn: string, event: unknown): Promise<InvokeOutcome> {
    const fn = this.functionOf(nameOrArn);
    if (!fn)
      return {
        ok: false,
        error: { errorType: 'ResourceNotFoundException', errorMessage: `Function not found: ${nameOrArn}` },
      };
    if (!fn.runtime.startsWith('nodejs'))
      return {
        ok: false,
        error: {
          errorType: 'Runtime.Unsupported',
          errorMessage: `${fn.name} runs on ${fn.runtime}; the local runtime runs Node.js functions only`,
        },
      };
    const instance = await this.acquire(fn);
    if (!instance)
      return { ok: false, error: { errorType: 'ServiceException', errorMessage: 'the local Lambda host is stopping' } };
    const requestId = randomUUID();
    try {
      const initError = await instance.ready;
      if (initError) {
        instance.die(initError);
        return { ok: false, error: initError };
      }
      return await instance.run(event, requestId);
    } finally {
      instance.busy = false;
      this.waiting.get(fn.name)?.shift()?.();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const waiters of this.waiting.values()) for (const wake of waiters.splice(0)) wake();
    const all = [...this.instances.values()].flat();
    for (const instance of all)
      instance.die({ errorType: 'ServiceException', errorMessage: 'the local Lambda host stopped' });
    await Promise.all(all.map((instance) => instance.worker.terminate()));
  }

  private async acquire(fn: LambdaFunction): Promise<Instance | null> {
    const max = this.options.maxInstancesPerFunction ?? 10;
    for (;;) {
      if (this.stopped) return null;
      const pool = this.instances.get(fn.name) ?? [];
      this.instances.set(fn.name, pool);
      const idle = pool.find((instance) => !instance.busy && !instance.dead);
      if (idle) {
        idle.busy = true;
        return idle;
      }
      if (pool.length < max) {
        const instance = this.coldStart(fn, pool);
        instance.busy = true;
        return instance;
      }
      await new Promise<void>((wake) => {
        const queue = this.waiting.get(fn.name) ?? [];
        this.waiting.set(fn.name, queue);
        queue.push(wake);
      });
    }
  }

  private coldStart(fn: LambdaFunction, pool: Instance[]): Instance {
    const [modulePath, exportName] = splitHandler(fn.handler);
    const file = ['.mjs', '.js', '.cjs']
      .map((extension) => join(fn.codeDirectory, `${modulePath}${extension}`))
      .find((candidate) => existsSync(candidate));
    const environment = {
      ...this.options.baseEnvironment,
      AWS_LAMBDA_FUNCTION_NAME: fn.name,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.name}`,
      AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
      LAMBDA_TASK_ROOT: fn.codeDirectory,
      _HANDLER: fn.handler,
      ...fn.environment,
    };
    const instance = new Instance(
      fn,
      file ?? join(fn.codeDirectory, `${modulePath}.mjs`),
      exportName,
      environment,
      (gone) => {
        const index = pool.indexOf(gone);
        if (index >= 0) pool.splice(index, 1);
        this.waiting.get(fn.name)?.shift()?.();
      },
    );
    pool.push(instance);
    return instance;
  }
}

function splitHandler(handler: string): [string, string] {
  const at = handler.lastIndexOf('.');
  return at < 0 ? [handler, 'handler'] : [handler.slice(0, at), handler.slice(at + 1)];
}
