import type { SFNClient } from '@aws-sdk/client-sfn';
import type {
  ExecutionState,
  InspectionExecutionInput,
  InspectionOrchestrator,
} from '../../domain/ports/inspections.js';

/** Answers to a token that is no longer waiting: the task timed out, was answered, or its run ended. */
const GONE = new Set(['TaskDoesNotExist', 'TaskTimedOut', 'InvalidToken']);

/** The SDK module and one client, loaded on first use: most functions never touch Step Functions. */
export interface SfnSdk {
  sdk: typeof import('@aws-sdk/client-sfn');
  client: SFNClient;
}

/** Step Functions (Standard) on AWS. Execution names are `<inspection id>-<attempt>`, so a start is idempotent. */
export class SfnOrchestrator implements InspectionOrchestrator {
  constructor(
    private readonly load: () => Promise<SfnSdk>,
    private readonly stateMachineArn: string,
  ) {}

  private name(input: InspectionExecutionInput): string {
    return `${input.inspection_id}-${input.attempt}`;
  }

  private executionArn(input: InspectionExecutionInput): string {
    return `${this.stateMachineArn.replace(':stateMachine:', ':execution:')}:${this.name(input)}`;
  }

  async start(input: InspectionExecutionInput): Promise<string> {
    const { sdk, client } = await this.load();
    try {
      const out = await client.send(
        new sdk.StartExecutionCommand({
          stateMachineArn: this.stateMachineArn,
          name: this.name(input),
          input: JSON.stringify(input),
        }),
      );
      return out.executionArn ?? this.executionArn(input);
    } catch (error) {
      // the same name with the same input is accepted by AWS; anything else already started it
      if (error instanceof sdk.ExecutionAlreadyExists) return this.executionArn(input);
      throw error;
    }
  }

  async describe(input: InspectionExecutionInput): Promise<ExecutionState> {
    const { sdk, client } = await this.load();
    try {
      const out = await client.send(new sdk.DescribeExecutionCommand({ executionArn: this.executionArn(input) }));
      if (out.status === 'RUNNING' || out.status === 'PENDING_REDRIVE') return 'running';
      return out.status === 'SUCCEEDED' ? 'succeeded' : 'failed';
    } catch (error) {
      if (error instanceof sdk.ExecutionDoesNotExist) return 'unknown';
      throw error;
    }
  }

  async stopExecution(input: InspectionExecutionInput, error: string): Promise<void> {
    const { sdk, client } = await this.load();
    try {
      await client.send(
        new sdk.StopExecutionCommand({
          executionArn: this.executionArn(input),
          error,
          cause: `stopped by the service: ${error}`,
        }),
      );
    } catch (failure) {
      // never started (a lost start) or already ended: nothing to stop
      if (!(failure instanceof sdk.ExecutionDoesNotExist)) throw failure;
    }
  }

  async sendTaskSuccess(token: string, output: Record<string, unknown>): Promise<boolean> {
    const { sdk, client } = await this.load();
    return answered(client.send(new sdk.SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify(output) })));
  }

  async sendTaskFailure(token: string, error: string, cause: string): Promise<boolean> {
    const { sdk, client } = await this.load();
    return answered(
      client.send(
        new sdk.SendTaskFailureCommand({ taskToken: token, error: error.slice(0, 256), cause: cause.slice(0, 32_768) }),
      ),
    );
  }
}

async function answered(sending: Promise<unknown>): Promise<boolean> {
  try {
    await sending;
    return true;
  } catch (error) {
    if (error instanceof Error && GONE.has(error.name)) return false;
    throw error;
  }
}
