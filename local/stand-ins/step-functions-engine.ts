import './promise-with-resolvers.js';
import { randomUUID } from 'node:crypto';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import type {
  ExecutionState,
  InspectionExecutionInput,
  InspectionOrchestrator,
} from '../../lambdas/domain/ports/inspections.js';
import type { Log } from '../../lambdas/domain/ports/services.js';

type Json = Parameters<StateMachine['run']>[0];
type TaskHandler = (input: Json) => Promise<Json>;

/** What a Lambda task calls (the stage worker in process, or a bundled function), with the function the task names. */
export type LocalInvoke = (payload: Record<string, unknown>, functionName: string) => Promise<unknown>;

/** The library hands every task this same `$$.Task.Token`; each token task swaps in a fresh one. */
const PLACEHOLDER_TOKEN = 'local-task-token-placeholder';

interface PendingTask {
  resolve: (output: Json) => void;
  reject: (error: Error) => void;
  execution: Execution;
}

interface Execution {
  key: string;
  state: ExecutionState;
  abort: () => void;
  tokens: Set<string>;
  /** stopped by `stopExecution`: it stays `failed` whatever the aborted run resolves to */
  stopped: boolean;
  /** states entered, as AWS bills them (state transitions) */
  transitions: number;
  done: Promise<void>;
}

class TaskFailure extends Error {
  constructor(error: string, cause: string) {
    super(cause);
    this.name = error;
  }
}

function replaceToken(value: unknown, token: string): unknown {
  if (value === PLACEHOLDER_TOKEN) return token;
  if (Array.isArray(value)) return value.map((item) => replaceToken(item, token));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceToken(v, token)]));
  return value;
}

/**
 * Runs the inspection ASL on aws-local-stepfunctions. The library does not pause on
 * `.waitForTaskToken`, so token tasks are local handlers that register a fresh token, call the stage
 * worker with it, and stay pending until `sendTaskSuccess` / `sendTaskFailure` answers it, exactly
 * as Step Functions does. Plain `lambda:invoke` tasks call the stage worker and wrap its answer in
 * the shape AWS returns (`Payload`).
 */
export class LocalStepFunctions implements InspectionOrchestrator {
  private readonly machine: StateMachine;
  private readonly definition: StateMachineDefinition;
  private readonly executions = new Map<string, Execution>();
  private readonly pending = new Map<string, PendingTask>();
  private stopped = false;

  constructor(
    private readonly options: {
      definition: string;
      invoke: LocalInvoke;
      log: Log;
      /** what ties a log line to the inspection (its request, organisation and id); without it, failed runs are not logged */
      logFields?: (inspectionId: string) => Promise<Record<string, unknown>>;
    },
  ) {
    this.definition = JSON.parse(options.definition) as StateMachineDefinition;
    // built once: the constructor validates the definition (~100 ms)
    this.machine = new StateMachine(this.definition);
  }

  private key(input: InspectionExecutionInput): string {
    return `${input.inspection_id}-${input.attempt}`;
  }

  private invoke(payload: unknown, functionName: string): Promise<unknown> {
    // after stop nothing may reach the domain: an aborted run must not settle anything
    if (this.stopped) return Promise.reject(new TaskFailure('States.Runtime', 'the local orchestrator stopped'));
    return this.options.invoke(payload as Record<string, unknown>, functionName);
  }

  private handlers(execution: Execution): Record<string, TaskHandler> {
    const handlers: Record<string, TaskHandler> = {};
    for (const [name, state] of Object.entries(this.definition.States)) {
      if (state.Type !== 'Task') continue;
      if (state.Resource.startsWith('arn:aws:lambda:')) {
        // a function ARN as the resource: the state's input is the event, the answer its output
        const resource = state.Resource;
        handlers[name] = async (input) => (await this.invoke(input, resource)) as Json;
      } else if (state.Resource.endsWith('.waitForTaskToken')) {
        handlers[name] = async (input) => {
          const token = randomUUID();
          let resolve!: (output: Json) => void;
          let reject!: (error: Error) => void;
          const promise = new Promise<Json>((res, rej) => {
            resolve = res;
            reject = rej;
          });
          // rejected by stop() possibly before the handler awaits it, or after an aborted run stopped listening
          promise.catch(() => undefined);
          // registered before the stage starter runs: a child may settle before it returns
          this.pending.set(token, { resolve, reject, execution });
          execution.tokens.add(token);
          try {
            const params = input as { Payload?: unknown; FunctionName?: string };
            await this.invoke(replaceToken(params.Payload, token), String(params.FunctionName));
            return await promise;
          } finally {
            this.pending.delete(token);
            execution.tokens.delete(token);
          }
        };
      } else {
        handlers[name] = async (input) => {
          const params = input as { Payload?: unknown; FunctionName?: string };
          const payload = await this.invoke(params.Payload, String(params.FunctionName));
          return { StatusCode: 200, ExecutedVersion: '$LATEST', Payload: (payload ?? null) as Json } as Json;
        };
      }
    }
    return handlers;
  }

  async start(input: InspectionExecutionInput): Promise<string> {
    return this.startNamed(this.key(input), input);
  }

  /** Starts an execution named `key` (an execution name is unique per state machine); a second start of a name returns it. */
  async startNamed(key: string, input: unknown): Promise<string> {
    if (this.stopped) throw new Error('the local orchestrator is stopped');
    if (this.executions.has(key)) return key;
    const execution: Execution = {
      key,
      state: 'running',
      abort: () => undefined,
      tokens: new Set(),
      stopped: false,
      transitions: 0,
      done: Promise.resolve(),
    };
    this.executions.set(key, execution);
    const run = this.machine.run(input as unknown as Json, {
      overrides: { taskResourceLocalHandlers: this.handlers(execution) },
      context: { Task: { Token: PLACEHOLDER_TOKEN } },
      noThrowOnAbort: true,
    });
    execution.abort = run.abort;
    const counted = (async () => {
      for await (const event of run.eventLogs) if (event.type === 'StateEntered') execution.transitions += 1;
    })().catch(() => undefined);
    execution.done = run.result.then(
      () => {
        if (execution.stopped) return;
        execution.state = this.stopped ? 'unknown' : 'succeeded';
      },
      (error: unknown) => {
        execution.state = 'failed';
        if (execution.stopped) return;
        // the designed failure path ends here too (a failed stage): the inspection itself says why
        const inspectionId = (input as Partial<InspectionExecutionInput>).inspection_id;
        if (this.stopped || !this.options.logFields || typeof inspectionId !== 'string') return;
        void this.options
          .logFields(inspectionId)
          .catch(() => ({ job_id: inspectionId }))
          .then((fields) =>
            this.options.log.info('inspection execution ended in failure', {
              ...fields,
              execution: key,
              error: String(error),
            }),
          );
      },
    );
    void counted;
    return key;
  }

  async describe(input: InspectionExecutionInput): Promise<ExecutionState> {
    return this.describeNamed(this.key(input));
  }

  describeNamed(key: string): ExecutionState {
    return this.executions.get(key)?.state ?? 'unknown';
  }

  /** As StopExecution: the run is aborted (described as failed, like AWS's ABORTED) and its open task tokens answer nothing more. */
  async stopExecution(input: InspectionExecutionInput): Promise<void> {
    this.stopNamed(this.key(input));
  }

  /** Stops the execution named `key`, if it is running. */
  stopNamed(key: string): void {
    const execution = this.executions.get(key);
    if (execution?.state !== 'running') return;
    execution.state = 'failed';
    execution.stopped = true;
    execution.abort();
    for (const token of execution.tokens) {
      const task = this.pending.get(token);
      this.pending.delete(token);
      task?.reject(new TaskFailure('States.Runtime', 'the execution was stopped'));
    }
  }

  async sendTaskSuccess(token: string, output: Record<string, unknown>): Promise<boolean> {
    const task = this.pending.get(token);
    if (!task) return false; // TaskDoesNotExist: late, repeated, or from a previous process
    this.pending.delete(token);
    task.resolve(output as Json);
    return true;
  }

  async sendTaskFailure(token: string, error: string, cause: string): Promise<boolean> {
    const task = this.pending.get(token);
    if (!task) return false;
    this.pending.delete(token);
    task.reject(new TaskFailure(error, cause));
    return true;
  }

  /** State transitions of one run (what AWS bills a Standard workflow by); for the benchmark. */
  transitionsOf(input: InspectionExecutionInput): number {
    return this.executions.get(this.key(input))?.transitions ?? 0;
  }

  /**
   * Aborts every run and rejects its open tokens: the library keeps waiting on an open task
   * (and its timeout timer keeps Node alive) otherwise. Nothing reaches the domain after this,
   * so the store keeps each inspection `processing` for the next start to resume.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const execution of this.executions.values()) {
      if (execution.state === 'running') execution.state = 'unknown';
      execution.abort();
    }
    for (const [token, task] of this.pending) {
      this.pending.delete(token);
      task.reject(new TaskFailure('States.Runtime', 'the local orchestrator stopped'));
    }
    await Promise.allSettled([...this.executions.values()].map((execution) => execution.done));
  }
}
