import { afterEach, describe, expect, it } from 'vitest';
import { StepFunctionsStandIn } from '../../../../local/stand-ins/step-functions.js';

// StopExecution on the Step Functions stand-in (an inspection past its Svc-Deadline, docs/internals/deadlines.md):
// the run ends at once, its waiting task token answers nothing more, and a missing execution is AWS's error.

const MACHINE = 'arn:aws:states:eu-west-1:000000000000:stateMachine:test-inspection';
const DEFINITION = JSON.stringify({
  StartAt: 'Wait for the stage',
  States: {
    'Wait for the stage': {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
      Parameters: {
        FunctionName: 'arn:aws:lambda:eu-west-1:000000000000:function:stage',
        Payload: { 'token.$': '$$.Task.Token' },
      },
      TimeoutSeconds: 60,
      End: true,
    },
  },
});
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

let standIn: StepFunctionsStandIn;
afterEach(async () => {
  await standIn.stop();
});

describe('StopExecution on the Step Functions stand-in', () => {
  it('ends a running execution and leaves its task token unanswerable', async () => {
    const tokens: string[] = [];
    standIn = new StepFunctionsStandIn(
      [{ arn: MACHINE, name: 'test-inspection', definition: DEFINITION }],
      async (payload) => {
        tokens.push(String(payload.token));
        return {};
      },
      quiet,
    );
    const { executionArn } = (await standIn.handle('StartExecution', {
      stateMachineArn: MACHINE,
      name: 'job_1-0',
      input: '{}',
    })) as { executionArn: string };
    await expect.poll(() => tokens.length).toBe(1);
    expect(await standIn.handle('DescribeExecution', { executionArn })).toMatchObject({ status: 'RUNNING' });

    await standIn.handle('StopExecution', { executionArn, error: 'DeadlineExceeded' });
    expect(await standIn.handle('DescribeExecution', { executionArn })).toMatchObject({ status: 'FAILED' });
    await expect(standIn.handle('SendTaskSuccess', { taskToken: tokens[0], output: '{}' })).rejects.toMatchObject({
      type: 'TaskDoesNotExist',
    });
    // stopping again is a no-op, as on AWS for an ended execution
    await standIn.handle('StopExecution', { executionArn });
  });

  it('answers ExecutionDoesNotExist for an execution never started', async () => {
    standIn = new StepFunctionsStandIn(
      [{ arn: MACHINE, name: 'test-inspection', definition: DEFINITION }],
      async () => ({}),
      quiet,
    );
    await expect(
      standIn.handle('StopExecution', { executionArn: `${MACHINE.replace(':stateMachine:', ':execution:')}:nope` }),
    ).rejects.toMatchObject({
      type: 'ExecutionDoesNotExist',
    });
  });
});

describe('StartExecution on the Step Functions stand-in', () => {
  it('refuses an input over 262,144 UTF-8 bytes in the call, as AWS does, and starts nothing', async () => {
    const invoked: unknown[] = [];
    standIn = new StepFunctionsStandIn(
      [{ arn: MACHINE, name: 'test-inspection', definition: DEFINITION }],
      async (payload) => {
        invoked.push(payload);
        return {};
      },
      quiet,
    );
    // 262,145 bytes: one over, counted in UTF-8 (each "é" is two bytes)
    const over = JSON.stringify({ pad: `${'é'.repeat((262_145 - '{"pad":""}'.length) / 2)}x` });
    expect(Buffer.byteLength(over, 'utf8')).toBe(262_145);
    await expect(
      standIn.handle('StartExecution', { stateMachineArn: MACHINE, name: 'too-big', input: over }),
    ).rejects.toMatchObject({ type: 'ValidationException', status: 400 });
    await expect(
      standIn.handle('DescribeExecution', {
        executionArn: `${MACHINE.replace(':stateMachine:', ':execution:')}:too-big`,
      }),
    ).rejects.toMatchObject({ type: 'ExecutionDoesNotExist' });
    // at the limit it starts
    const at = `${over.slice(0, -3)}"}`;
    expect(Buffer.byteLength(at, 'utf8')).toBe(262_144);
    await standIn.handle('StartExecution', { stateMachineArn: MACHINE, name: 'at-limit', input: at });
    await expect.poll(() => invoked.length).toBe(1);
    expect(invoked).toHaveLength(1);
  });
});
