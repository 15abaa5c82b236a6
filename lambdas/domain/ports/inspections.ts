/** What starts one run of the inspection pipeline (statemachines/inspection.asl.json). */
export interface InspectionExecutionInput {
  inspection_id: string;
  /** 0 for the first run; a resumed run after a lost execution counts up (AWS execution names must be new) */
  attempt: number;
}

export type ExecutionState = 'running' | 'succeeded' | 'failed' | 'unknown';

/**
 * Hands a waiting stage task its outcome. Late or repeated callbacks (the task timed out, was
 * already answered, or its execution is gone) are harmless: they resolve to `false`.
 */
export interface TaskCallbacks {
  sendTaskSuccess(token: string, output: Record<string, unknown>): Promise<boolean>;
  sendTaskFailure(token: string, error: string, cause: string): Promise<boolean>;
}

/** Step Functions on AWS; the same ASL on aws-local-stepfunctions in the local runtime and tests. */
export interface InspectionOrchestrator extends TaskCallbacks {
  /** starts the run `input.attempt` of the inspection; starting the same attempt twice starts it once */
  start(input: InspectionExecutionInput): Promise<string>;
  /** `unknown`: this orchestrator has no such run (never started, or a local process restarted since) */
  describe(input: InspectionExecutionInput): Promise<ExecutionState>;
  /** stops the run (its inspection's deadline passed); a run that ended or that this orchestrator does not know is left alone */
  stopExecution(input: InspectionExecutionInput, error: string): Promise<void>;
}
