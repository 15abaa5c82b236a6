import { beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_CONCURRENCY } from '../../lib/concurrency.js';
import {
  actionsOf,
  type CfnResource,
  flatten,
  ownFunctions,
  type Statement,
  statementsOf,
  synthStack,
} from './template.js';

// The AWS wiring of Svc-Deadline (docs/internals/deadlines.md): the timer is a delayed message on the fast work
// queue, sent by the admitting function and consumed by the work-queue consumer, which (with the
// sweeper, the backstop) may stop an inspection's execution.

let resources: Record<string, CfnResource>;
let functions: ReturnType<typeof ownFunctions>;

beforeAll(() => {
  ({ resources } = synthStack());
  functions = ownFunctions(resources);
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const fastQueueId = () => ofType('AWS::SQS::Queue').find(([id]) => /^QueuesFastWorkQueue[0-9A-F]{8}$/.test(id))![0];
const statementsFor = (name: string): Statement[] => statementsOf(resources, functions.get(name)!.logicalId);
const EXECUTIONS = 'arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:TestStack-inspection:*';

describe('deadline timers', () => {
  it('the inference functions may send to the fast work queue and know its URL', () => {
    const sends = statementsFor('create-job').filter((s) => actionsOf([s]).includes('sqs:SendMessage'));
    expect(sends.flatMap((s) => [s.Resource].flat().map(flatten)).some((arn) => arn.includes(fastQueueId()))).toBe(
      true,
    );
    expect(flatten(functions.get('create-job')!.props.Environment.Variables.FAST_WORK_QUEUE_URL)).toContain(
      fastQueueId(),
    );
  });

  it('the work-queue consumer reads the fast work queue with the largest concurrency cap of any queue, room for timers', () => {
    const consumer = functions.get('work-queue-consumer')!.logicalId;
    const mapping = ofType('AWS::Lambda::EventSourceMapping').find(([, m]) =>
      flatten(m.Properties!.EventSourceArn).includes(fastQueueId()),
    )![1];
    expect(flatten(mapping.Properties!.FunctionName)).toContain(consumer);
    expect(mapping.Properties!.ScalingConfig).toEqual({ MaximumConcurrency: QUEUE_CONCURRENCY.fastLane });
    expect(Math.max(...Object.values(QUEUE_CONCURRENCY))).toBe(QUEUE_CONCURRENCY.fastLane);
  });

  it('the consumer and the sweeper may stop executions of the inspection state machine, and only those', () => {
    for (const name of ['work-queue-consumer', 'sweeper']) {
      const stops = statementsFor(name).filter((s) => actionsOf([s]).includes('states:StopExecution'));
      expect(
        stops.map((s) => flatten(s.Resource)),
        name,
      ).toEqual([EXECUTIONS]);
    }
    for (const [name, fn] of functions) {
      if (name === 'work-queue-consumer' || name === 'sweeper') continue;
      expect(actionsOf(statementsOf(resources, fn.logicalId)), name).not.toContain('states:StopExecution');
    }
  });
});
