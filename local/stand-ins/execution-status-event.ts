import { randomUUID } from 'node:crypto';
import type { ExecutionEnd } from './step-functions-engine.js';

/**
 * EventBridge's "Step Functions Execution Status Change" for an execution that ended, as AWS sends
 * it to a rule's targets (the batch-run worker hears of every batch run that did not succeed).
 */
export function executionStatusEvent(options: {
  stateMachineArn: string;
  name: string;
  status: ExecutionEnd;
  input: unknown;
  region: string;
  account: string;
}) {
  const executionArn = `${options.stateMachineArn.replace(':stateMachine:', ':execution:')}:${options.name}`;
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Step Functions Execution Status Change',
    source: 'aws.states',
    account: options.account,
    time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    region: options.region,
    resources: [executionArn],
    detail: {
      executionArn,
      stateMachineArn: options.stateMachineArn,
      name: options.name,
      status: options.status,
      input: JSON.stringify(options.input),
      stopDate: Date.now(),
    },
  };
}
