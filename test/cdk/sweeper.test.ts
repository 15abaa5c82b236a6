import { beforeAll, describe, expect, it } from 'vitest';
import { STOP_BEFORE_TIMEOUT_MS } from '../../lambdas/workers/sweeper.js';
import { SWEEP_INTERVAL, WORKER_TIMEOUT } from '../../lib/workers.js';
import { actionsOf, type CfnResource, flatten, ownFunctions, statementsOf, synthStack } from './template.js';

/**
 * The sweeper's deployment (docs/internals/operations.md, "The sweeper"): every minute, 60 s long, never run
 * again by Lambda or EventBridge after a failure, and free to take its lease item in the table.
 */
let resources: Record<string, CfnResource>;
let sweeper: NonNullable<ReturnType<ReturnType<typeof ownFunctions>['get']>>;

beforeAll(() => {
  resources = synthStack().resources;
  sweeper = ownFunctions(resources).get('sweeper')!;
});

const targeting = (type: string) =>
  Object.values(resources).filter(
    (r) => r.Type === type && flatten(r.Properties?.Targets ?? r.Properties?.FunctionName).includes(sweeper.logicalId),
  );

describe('the sweeper', () => {
  it('runs every minute for at most 60 s, and stops reading due jobs with 20 s of it left', () => {
    expect(sweeper.props.Timeout).toBe(WORKER_TIMEOUT.toSeconds());
    expect(WORKER_TIMEOUT.toSeconds()).toBe(60);
    expect(STOP_BEFORE_TIMEOUT_MS).toBe(20_000);
    const rules = targeting('AWS::Events::Rule');
    expect(rules.map((r) => [r.Properties!.ScheduleExpression, r.Properties!.State])).toEqual([
      [`rate(${SWEEP_INTERVAL.toMinutes()} minute)`, 'ENABLED'],
    ]);
  });

  it('is not run again after a failure, by EventBridge or by Lambda: a retry would only meet the next tick', () => {
    const [rule] = targeting('AWS::Events::Rule');
    expect(rule!.Properties!.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 0 });
    const configs = targeting('AWS::Lambda::EventInvokeConfig');
    expect(configs.map((c) => [c.Properties!.MaximumRetryAttempts, c.Properties!.MaximumEventAgeInSeconds])).toEqual([
      [0, 60],
    ]);
    // a failed run is parked on the schedules' dead-letter queue, which alarms
    expect(JSON.stringify(configs[0]!.Properties!.DestinationConfig.OnFailure.Destination)).toContain(
      'ScheduleDeadLetterQueue',
    );
  });

  it('keeps runs apart with its lease item, not reserved concurrency: it may put and delete items conditionally', () => {
    expect(sweeper.props.ReservedConcurrentExecutions).toBeUndefined();
    const actions = actionsOf(statementsOf(resources, sweeper.logicalId));
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:DeleteItem']));
  });
});
