import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_BATCH_SIZE, DELIVERY_TIMEOUT } from '../../lib/webhooks.js';
import { actionsOf, type CfnResource, flatten, ownFunctions, statementsOf, synthStack } from './template.js';

let resources: Record<string, CfnResource>;
let monitoring: Record<string, CfnResource>;
let functions: ReturnType<typeof ownFunctions>;
const idOf = (pattern: RegExp, type: string) =>
  Object.entries(resources).find(([id, r]) => r.Type === type && pattern.test(id))![0];

beforeAll(() => {
  const synthesized = synthStack();
  resources = synthesized.resources;
  monitoring = Template.fromStack(Stack.of(synthesized.stack.observability)).toJSON().Resources as Record<
    string,
    CfnResource
  >;
  functions = ownFunctions(resources);
});

describe('webhook delivery on AWS', () => {
  it('a standard queue (per-message delays) redriven to its own encrypted dead-letter queue; visibility six times the delivery timeout', () => {
    const queue = resources[idOf(/WebhookQueue/, 'AWS::SQS::Queue')]!;
    expect(queue.Properties?.FifoQueue).toBeUndefined();
    expect(queue.Properties?.VisibilityTimeout).toBe(DELIVERY_TIMEOUT.toSeconds() * 6);
    expect(flatten(queue.Properties?.RedrivePolicy.deadLetterTargetArn)).toMatch(/WebhookDeadLetterQueue/);
  });

  it('the delivery function consumes it in batches with per-record failures and runs within its timeout', () => {
    const delivery = functions.get('webhook-delivery')!;
    expect(delivery.props.Timeout).toBe(DELIVERY_TIMEOUT.toSeconds());
    const mapping = Object.values(resources).find(
      (r) =>
        r.Type === 'AWS::Lambda::EventSourceMapping' &&
        flatten(r.Properties?.FunctionName).includes(delivery.logicalId),
    )!;
    expect(flatten(mapping.Properties?.EventSourceArn)).toMatch(/WebhookQueue/);
    expect(mapping.Properties?.BatchSize).toBe(DELIVERY_BATCH_SIZE);
    expect(mapping.Properties?.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(Object.keys(delivery.props.Environment.Variables)).toEqual(
      expect.arrayContaining(['TABLE_NAME', 'WEBHOOK_QUEUE_URL']),
    );
  });

  it('grants the delivery function the table and its own queue, nothing of the bucket or the work queue', () => {
    const statements = statementsOf(resources, functions.get('webhook-delivery')!.logicalId);
    const actions = actionsOf(statements);
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:Query',
        'sqs:SendMessage',
        'sqs:ReceiveMessage',
        'sqs:DeleteMessage',
      ]),
    );
    expect(actions.filter((a) => a.startsWith('s3:'))).toEqual([]);
    const sends = statements
      .filter((s) => actionsOf([s]).includes('sqs:SendMessage'))
      .flatMap((s) => [s.Resource].flat().map(flatten));
    expect(sends.every((arn) => /WebhookQueue/.test(arn) && !/DeadLetter/.test(arn))).toBe(true);
  });

  it('every function that settles jobs or records stages may announce them on the webhook queue, and has its URL', () => {
    for (const name of ['work-queue-consumer', 'sweeper', 'inspection-stage', 'receive-completion']) {
      const fn = functions.get(name)!;
      const sends = statementsOf(resources, fn.logicalId)
        .filter((s) => actionsOf([s]).includes('sqs:SendMessage'))
        .flatMap((s) => [s.Resource].flat().map(flatten));
      expect(
        sends.some((arn) => /WebhookQueue/.test(arn) && !/DeadLetter/.test(arn)),
        name,
      ).toBe(true);
      expect(fn.props.Environment.Variables.WEBHOOK_QUEUE_URL, name).toBeDefined();
    }
  });

  it('alarms as soon as a message reaches the dead-letter queue', () => {
    const alarm = Object.values(monitoring).find(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' &&
        JSON.stringify(flatten(r.Properties?.Dimensions ?? '')).includes('WebhookDeadLetterQueue'),
    )!;
    expect(alarm.Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });
});
