import type { Log } from '../../lambdas/domain/ports/services.js';
import { type JsonService, ServiceError } from './aws-json-services.js';
import type { MapRunPorts } from './distributed-map.js';
import { checkExecutionInput } from './states-errors.js';
import { type ExecutionEnd, type LocalInvoke, LocalStepFunctions } from './step-functions-engine.js';

export interface StateMachineDefinition {
  arn: string;
  name: string;
  /** the ASL, substitutions applied */
  definition: string;
}

const STATUS = { running: 'RUNNING', succeeded: 'SUCCEEDED', failed: 'FAILED', unknown: 'ABORTED' } as const;

/** What the state machines reach besides their Lambda tasks: S3 for a Distributed Map's items, EventBridge for their ends. */
export interface StepFunctionsSurroundings {
  readObject: MapRunPorts['readObject'];
  onExecutionEnd(stateMachineArn: string, name: string, status: ExecutionEnd, input: unknown): void;
}

/**
 * Step Functions for the SDK: StartExecution, DescribeExecution, StopExecution, SendTaskSuccess,
 * SendTaskFailure and SendTaskHeartbeat on the state machines of an assembly, each run by the same local engine
 * `npm start` uses (aws-local-stepfunctions, with task tokens that wait like AWS's, Distributed Maps
 * run by our executor, and the 256 KiB state payload limit).
 */
export class StepFunctionsStandIn implements JsonService {
  readonly targetPrefix = 'AWSStepFunctions';
  private readonly machines = new Map<
    string,
    { name: string; engine: LocalStepFunctions; started: Map<string, { input: string; startDate: number }> }
  >();

  constructor(
    definitions: readonly StateMachineDefinition[],
    invoke: LocalInvoke,
    log: Log,
    surroundings?: StepFunctionsSurroundings,
  ) {
    for (const machine of definitions) {
      this.machines.set(machine.arn, {
        name: machine.name,
        engine: new LocalStepFunctions({
          definition: machine.definition,
          invoke,
          log,
          ...(surroundings && {
            readObject: surroundings.readObject,
            onExecutionEnd: (name, status, input) => surroundings.onExecutionEnd(machine.arn, name, status, input),
          }),
        }),
        started: new Map(),
      });
    }
  }

  async handle(operation: string, input: Record<string, unknown>): Promise<unknown> {
    switch (operation) {
      case 'StartExecution': {
        const arn = String(input.stateMachineArn);
        const machine = this.machine(arn);
        const name = typeof input.name === 'string' ? input.name : crypto.randomUUID();
        const body = typeof input.input === 'string' ? input.input : '{}';
        checkExecutionInput(body);
        const previous = machine.started.get(name);
        if (previous && previous.input !== body)
          throw new ServiceError(
            'ExecutionAlreadyExists',
            `Execution already exists: '${this.executionArn(arn, name)}'`,
          );
        if (!previous) {
          machine.started.set(name, { input: body, startDate: Date.now() / 1000 });
          await machine.engine.startNamed(name, JSON.parse(body));
        }
        return { executionArn: this.executionArn(arn, name), startDate: machine.started.get(name)!.startDate };
      }
      case 'DescribeExecution': {
        const { executionArn, arn, name, started, machine } = this.execution(input);
        return {
          executionArn,
          stateMachineArn: arn,
          name,
          status: STATUS[machine.engine.describeNamed(name)],
          startDate: started.startDate,
          input: started.input,
        };
      }
      case 'StopExecution': {
        const { name, machine } = this.execution(input);
        machine.engine.stopNamed(name);
        return { stopDate: Date.now() / 1000 };
      }
      case 'SendTaskSuccess':
      case 'SendTaskFailure': {
        const token = String(input.taskToken);
        for (const { engine } of this.machines.values()) {
          const answered =
            operation === 'SendTaskSuccess'
              ? await engine.sendTaskSuccess(token, JSON.parse(String(input.output ?? '{}')) as Record<string, unknown>)
              : await engine.sendTaskFailure(token, String(input.error ?? ''), String(input.cause ?? ''));
          if (answered) return {};
        }
        throw new ServiceError('TaskDoesNotExist', 'Task does not exist anymore');
      }
      case 'SendTaskHeartbeat':
        return {};
      default:
        throw new ServiceError('UnknownOperationException', `Step Functions ${operation} is not run locally`);
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.machines.values()].map(({ engine }) => engine.stop()));
  }

  private machine(arn: string) {
    const machine = this.machines.get(arn);
    if (!machine) throw new ServiceError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`);
    return machine;
  }

  /** The started execution `input.executionArn` names, or AWS's ExecutionDoesNotExist. */
  private execution(input: Record<string, unknown>) {
    const executionArn = String(input.executionArn);
    const at = executionArn.lastIndexOf(':');
    const arn = executionArn.slice(0, at).replace(':execution:', ':stateMachine:');
    const name = executionArn.slice(at + 1);
    const started = this.machines.get(arn)?.started.get(name);
    if (!started) throw new ServiceError('ExecutionDoesNotExist', `Execution does not exist: '${executionArn}'`);
    return { executionArn, arn, name, started, machine: this.machine(arn) };
  }

  private executionArn(stateMachineArn: string, name: string): string {
    return `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
  }
}
