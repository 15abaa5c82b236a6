import './promise-with-resolvers.js';
import { randomUUID } from 'node:crypto';
import { ExecutionTimeoutError, StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import type {
  ExecutionState,
  InspectionExecutionInput,
  InspectionOrchestrator,
} from '../../lambdas/domain/ports/inspections.js';
import type { Log } from '../../lambdas/domain/ports/services.js';
import {
  assertRunnableLocally,
  type DistributedMapState,
  isDistributedMap,
  type MapRunPorts,
  runDistributedMap,
} from './distributed-map.js';
import { checkExecutionInput, checkPayload, StatesError } from './states-errors.js';

type Json = Parameters<StateMachine['run']>[0];
type TaskHandler = (input: Json) => Promise<Json>;
type States = StateMachineDefinition['States'];

/** How an execution ended, as Step Functions reports it (its EventBridge status change). */
export type ExecutionEnd = 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

/** The resource of the Task that stands for a Distributed Map: its local handler runs the map (distributed-map.ts). */
const DISTRIBUTED_MAP_RESOURCE = 'arn:aws:states:::states:startExecution.sync:2';
/** setTimeout's ceiling (about 24.8 days): a Map without the machine's timeout waits this long at most. */
const MAX_TIMER_SECONDS = 2_147_483;

/** What a Lambda task calls (the stage worker in process, or a bundled function), with the function the task names. */
export type LocalInvoke = (payload: Record<string, unknown>, functionName: string) => Promise<unknown>;

/** The library hands every task this same `$$.Task.Token`; each token task swaps in a fresh one. */
const PLACEHOLDER_TOKEN = 'local-task-token-placeholder';

/**
 * The engine's constructor would validate each definition with asl-validator, compiling its JSON schema
 * afresh every time: 130-400 ms of CPU per machine, in every runtime a test or `npm start` builds. The
 * definitions are validated where they are written instead (test/unit/statemachines/: asl-validator
 * with ARN and path checks), as AWS validates them once, at deploy.
 */
const UNVALIDATED = { validationOptions: { noValidate: true } } as const;

interface PendingTask {
  resolve: (output: Json) => void;
  reject: (error: Error) => void;
  execution: ChildExecution;
}

interface Execution extends ChildExecution {
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

/** A run of a definition: an execution, or a child execution of a Distributed Map (no name of its own). */
interface ChildExecution {
  tokens: Set<string>;
  /** a terminal error (`States.DataLimitExceeded`) that ended the run where no Catch sees it */
  failure?: StatesError;
  /** aborted when the run stops or fails past every Catch: its Distributed Maps abort their children */
  halted: AbortController;
}

/** Lets the run's event log be read (it is consumed asynchronously) before a task acts on what the run did. */
const eventsRead = () => new Promise<void>((resolve) => setImmediate(resolve));

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

/** The definition the library runs: each Distributed Map becomes a Task whose local handler runs it. */
function withLocalMaps(definition: StateMachineDefinition): {
  definition: StateMachineDefinition;
  maps: Map<string, DistributedMapState>;
} {
  const maps = new Map<string, DistributedMapState>();
  const states: Record<string, unknown> = {};
  for (const [name, state] of Object.entries(definition.States)) {
    if (!isDistributedMap(state)) {
      states[name] = state;
      continue;
    }
    assertRunnableLocally(name, state);
    maps.set(name, state);
    const {
      ItemReader: _reader,
      ItemSelector: _selector,
      ItemBatcher: _batcher,
      ItemProcessor: _processor,
      MaxConcurrency: _concurrency,
      ToleratedFailurePercentage: _percentage,
      ToleratedFailureCount: _count,
      ...kept
    } = state as DistributedMapState & Record<string, unknown>;
    // a Map has no timeout of its own: the execution's bounds it
    const timeoutSeconds = Math.min(definition.TimeoutSeconds ?? MAX_TIMER_SECONDS, MAX_TIMER_SECONDS);
    states[name] = { ...kept, Type: 'Task', Resource: DISTRIBUTED_MAP_RESOURCE, TimeoutSeconds: timeoutSeconds };
  }
  return { definition: { ...definition, States: states as States }, maps };
}

/**
 * Runs an ASL definition on aws-local-stepfunctions (the inspection and the batch state machines).
 * The library does not pause on `.waitForTaskToken`, so token tasks are local handlers that
 * register a fresh token, call the stage worker with it, and stay pending until `sendTaskSuccess` /
 * `sendTaskFailure` answers it, exactly as Step Functions does. Plain `lambda:invoke` tasks call the
 * worker and wrap its answer in the shape AWS returns (`Payload`). The library has no Distributed
 * Map: those states run on our executor (distributed-map.ts), their item batches as child
 * executions of the ItemProcessor. And as on AWS, a state's input or output over 256 KiB fails the
 * execution with `States.DataLimitExceeded`, which no `States.ALL` catcher sees.
 */
export class LocalStepFunctions implements InspectionOrchestrator {
  private readonly machine: StateMachine;
  private readonly definition: StateMachineDefinition;
  private readonly maps: Map<string, DistributedMapState>;
  /** each Distributed Map's ItemProcessor, built once (the constructor validates it) */
  private readonly processors = new Map<string, StateMachine>();
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
      /** what a Distributed Map's ItemReader reads: an object of the S3 stand-in, as text */
      readObject?: MapRunPorts['readObject'];
      /** told when an execution ends, with its input (EventBridge's "Execution Status Change"); `ABORTED` when the engine stops it */
      onExecutionEnd?: (key: string, status: ExecutionEnd, input: unknown) => void;
    },
  ) {
    const local = withLocalMaps(JSON.parse(options.definition) as StateMachineDefinition);
    this.definition = local.definition;
    this.maps = local.maps;
    this.machine = new StateMachine(this.definition, UNVALIDATED);
    for (const [name, map] of this.maps)
      this.processors.set(
        name,
        new StateMachine(
          { StartAt: map.ItemProcessor.StartAt, States: map.ItemProcessor.States as States },
          UNVALIDATED,
        ),
      );
  }

  private key(input: InspectionExecutionInput): string {
    return `${input.inspection_id}-${input.attempt}`;
  }

  private invoke(payload: unknown, functionName: string): Promise<unknown> {
    // after stop nothing may reach the domain: an aborted run must not settle anything
    if (this.stopped) return Promise.reject(new TaskFailure('States.Runtime', 'the local orchestrator stopped'));
    return this.options.invoke(payload as Record<string, unknown>, functionName);
  }

  /**
   * One handler per Task of `states`; each refuses to act once the run has failed where no Catch
   * sees it, and holds its input (after Parameters) and its result to the state payload limit.
   */
  private handlers(states: States, execution: ChildExecution): Record<string, TaskHandler> {
    const handlers: Record<string, TaskHandler> = {};
    for (const [name, state] of Object.entries(states)) {
      if (state.Type !== 'Task') continue;
      const run = this.taskRun(name, state.Resource, execution);
      handlers[name] = async (input) => {
        await eventsRead();
        if (execution.failure) throw execution.failure;
        checkPayload(input, `the input of state '${name}'`);
        const output = await run(input);
        checkPayload(output, `the output of state '${name}'`);
        return output;
      };
    }
    return handlers;
  }

  private taskRun(name: string, resource: string, execution: ChildExecution): TaskHandler {
    const map = this.maps.get(name);
    if (map && resource === DISTRIBUTED_MAP_RESOURCE) return (input) => this.runMap(name, map, input, execution);
    if (resource.startsWith('arn:aws:lambda:'))
      // a function ARN as the resource: the state's input is the event, the answer its output
      return async (input) => (await this.invoke(input, resource)) as Json;
    if (resource.endsWith('.waitForTaskToken'))
      return async (input) => {
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
    return async (input) => {
      const params = input as { Payload?: unknown; FunctionName?: string };
      const payload = await this.invoke(params.Payload, String(params.FunctionName));
      return { StatusCode: 200, ExecutedVersion: '$LATEST', Payload: (payload ?? null) as Json } as Json;
    };
  }

  /** A Distributed Map state: its item batches run as child executions of its ItemProcessor. */
  private async runMap(name: string, map: DistributedMapState, input: Json, parent: ChildExecution): Promise<Json> {
    const readObject = this.options.readObject;
    if (!readObject) throw new StatesError('States.ItemReaderFailed', 'this local engine has no S3 to read items from');
    const processor = this.processors.get(name)!;
    return (await runDistributedMap(
      map,
      input,
      {},
      { readObject, runChild: (childInput, signal) => this.runChild(processor, map, childInput, signal) },
      parent.halted.signal,
    )) as Json;
  }

  /** One child execution: the ItemProcessor's states on one item batch; rejects with the error that failed it. */
  private async runChild(
    processor: StateMachine,
    map: DistributedMapState,
    input: unknown,
    signal: AbortSignal,
  ): Promise<unknown> {
    const child: ChildExecution = { tokens: new Set(), halted: new AbortController() };
    const run = processor.run(input as Json, {
      overrides: { taskResourceLocalHandlers: this.handlers(map.ItemProcessor.States as States, child) },
      context: { Task: { Token: PLACEHOLDER_TOKEN } },
      noThrowOnAbort: true,
    });
    const abort = () => {
      child.halted.abort();
      run.abort();
    };
    signal.addEventListener('abort', abort);
    const checked = this.checkEvents(run, child);
    try {
      const output = await run.result.catch((error: unknown) => {
        throw (error as { cause?: unknown }).cause ?? error;
      });
      await checked;
      if (child.failure) throw child.failure;
      if (signal.aborted) throw new StatesError('States.Runtime', 'the child execution was aborted', true);
      return output;
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  /**
   * Reads a run's event log: counts the states entered (what AWS bills), and fails the run when a
   * state's input or output is over the payload limit, as Step Functions does, past every Catch.
   */
  private async checkEvents(
    run: ReturnType<StateMachine['run']>,
    execution: ChildExecution & { transitions?: number },
  ): Promise<void> {
    try {
      for await (const event of run.eventLogs) {
        if (event.type === 'StateEntered' && execution.transitions !== undefined) execution.transitions += 1;
        if (execution.failure || (event.type !== 'StateEntered' && event.type !== 'StateExited')) continue;
        try {
          if (event.type === 'StateEntered')
            checkPayload(event.state.input, `the input of state '${event.state.name}'`);
          else checkPayload(event.state.output, `the output of state '${event.state.name}'`);
        } catch (error) {
          execution.failure = error as StatesError;
          execution.halted.abort();
          run.abort();
        }
      }
    } catch {
      // the log ends with the run
    }
  }

  async start(input: InspectionExecutionInput): Promise<string> {
    return this.startNamed(this.key(input), input);
  }

  /** Starts an execution named `key` (an execution name is unique per state machine); a second start of a name returns it. */
  async startNamed(key: string, input: unknown): Promise<string> {
    if (this.stopped) throw new Error('the local orchestrator is stopped');
    if (this.executions.has(key)) return key;
    // what the SDK would send as StartExecution's input, refused over its limit before anything starts
    checkExecutionInput(JSON.stringify(input ?? {}));
    const execution: Execution = {
      key,
      state: 'running',
      abort: () => undefined,
      tokens: new Set(),
      halted: new AbortController(),
      stopped: false,
      transitions: 0,
      done: Promise.resolve(),
    };
    this.executions.set(key, execution);
    const run = this.machine.run(input as unknown as Json, {
      overrides: { taskResourceLocalHandlers: this.handlers(this.definition.States, execution) },
      context: { Task: { Token: PLACEHOLDER_TOKEN } },
      noThrowOnAbort: true,
    });
    execution.abort = run.abort;
    const checked = this.checkEvents(run, execution);
    // a run the engine's stop ends is aborted as a stopped one is: the process that ran it is gone
    const ended = (status: ExecutionEnd) =>
      this.options.onExecutionEnd?.(key, this.stopped && status !== 'SUCCEEDED' ? 'ABORTED' : status, input);
    execution.done = run.result.then(
      async () => {
        await checked;
        if (execution.stopped || (this.stopped && !execution.failure)) return ended('ABORTED');
        if (execution.failure) {
          execution.state = 'failed';
          this.logFailure(key, input, execution.failure);
          return ended('FAILED');
        }
        execution.state = 'succeeded';
        ended('SUCCEEDED');
      },
      (error: unknown) => {
        execution.state = 'failed';
        if (execution.stopped) return ended('ABORTED');
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof StatesError && !cause.isCatchable) execution.failure ??= cause;
        ended(error instanceof ExecutionTimeoutError ? 'TIMED_OUT' : 'FAILED');
        this.logFailure(key, input, error);
      },
    );
    return key;
  }

  /** The designed failure path ends here too (a failed stage): the inspection itself says why. */
  private logFailure(key: string, input: unknown, error: unknown): void {
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
  }

  async describe(input: InspectionExecutionInput): Promise<ExecutionState> {
    return this.describeNamed(this.key(input));
  }

  describeNamed(key: string): ExecutionState {
    return this.executions.get(key)?.state ?? 'unknown';
  }

  /** The terminal error that failed the execution named `key` past every Catch (`States.DataLimitExceeded`), if one did. */
  terminalErrorOf(key: string): { error: string; cause: string } | undefined {
    const failure = this.executions.get(key)?.failure;
    return failure && { error: failure.name, cause: failure.message };
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
    execution.halted.abort();
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
      execution.halted.abort();
      execution.abort();
    }
    for (const [token, task] of this.pending) {
      this.pending.delete(token);
      task.reject(new TaskFailure('States.Runtime', 'the local orchestrator stopped'));
    }
    await Promise.allSettled([...this.executions.values()].map((execution) => execution.done));
  }
}
