import type { ExecutionState, InspectionOrchestrator } from '../../domain/ports/inspections.js';

/** Without a state machine (a function that never runs inspections): starting one is a fault, callbacks go nowhere. */
export class UnconfiguredOrchestrator implements InspectionOrchestrator {
  async start(): Promise<string> {
    throw new Error('no inspection state machine is configured (STATE_MACHINE_ARN)');
  }
  async describe(): Promise<ExecutionState> {
    return 'unknown';
  }
  async sendTaskSuccess(): Promise<boolean> {
    return false;
  }
  async sendTaskFailure(): Promise<boolean> {
    return false;
  }
}
