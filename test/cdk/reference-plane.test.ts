import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { OCR_ASSETS_VARIABLE } from '../../lambdas/planes/ocr/ocr-assets.js';
import type { ManagementSettings } from '../../lib/management-settings.js';
import { OCR_ASSETS_FOLDER } from '../../lib/ocr-assets.js';
import { OCR_PLANE_MEMORY_MB } from '../../lib/reference-plane.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import {
  actionsOf,
  assemblyResources,
  type CfnResource,
  flatten,
  ownFunctions,
  statementsOf,
  testApp,
} from './template.js';

function synth(management: ManagementSettings) {
  const stack = new AutomotiveInferenceStack(testApp(), 'TestStack', { management });
  const template = Template.fromStack(stack);
  // the route functions live in a nested stack: one set of resources, references resolved
  const resources = assemblyResources(stack);
  return {
    template,
    resources,
    functions: ownFunctions(resources),
    outputs: template.toJSON().Outputs as Record<string, { Value: unknown }>,
  };
}

const ofType = (resources: Record<string, CfnResource>, type: string) =>
  Object.entries(resources).filter(([, resource]) => resource.Type === type);

describe('-c referencePlane=true', () => {
  const withPlane = synth({ referencePlane: true });
  const plane = withPlane.functions.get('reference-inference-plane')!;
  const urls = ofType(withPlane.resources, 'AWS::Lambda::Url');
  const secrets = ofType(withPlane.resources, 'AWS::SecretsManager::Secret');

  /** the generated secret is named after the stack, and every function imports it by that name */
  const byName = /:secret:TestStack\/inference-callback$/;

  it('deploys the reference plane behind a function URL that anyone may call: submissions are authenticated by their signature, as by any plane', () => {
    expect(plane).toBeDefined();
    expect(flatten(plane.props.Environment.Variables.INFERENCE_CALLBACK_SECRET_ARN)).toMatch(byName);
    expect(urls).toHaveLength(1);
    expect(urls[0]![1].Properties).toMatchObject({
      AuthType: 'NONE',
      TargetFunctionArn: { 'Fn::GetAtt': [plane.logicalId, 'Arn'] },
    });
    expect(flatten(withPlane.outputs.ReferencePlaneUrl!.Value)).toBe(`<${urls[0]![0]}.FunctionUrl>`);
  });

  it('submits live jobs to it: both workers get its URL, the callback URL and the generated shared secret, which the callback route verifies with', () => {
    expect(secrets).toHaveLength(1);
    expect(secrets[0]![1].Properties).toMatchObject({
      Name: 'TestStack/inference-callback',
      GenerateSecretString: { PasswordLength: 64 },
    });
    for (const name of ['work-queue-consumer', 'sweeper']) {
      const variables = withPlane.functions.get(name)!.props.Environment.Variables;
      expect(variables.INFERENCE_PLANE_URL).toEqual({ 'Fn::GetAtt': [urls[0]![0], 'FunctionUrl'] });
      expect(flatten(variables.INFERENCE_CALLBACK_URL)).toMatch(/\/prod\/internal\/v1\/completions$/);
      expect(flatten(variables.INFERENCE_CALLBACK_SECRET_ARN)).toMatch(byName);
      expect(actionsOf(statementsOf(withPlane.resources, withPlane.functions.get(name)!.logicalId))).toContain(
        'secretsmanager:GetSecretValue',
      );
    }
    const callbackRoute = withPlane.functions.get('receive-completion')!;
    expect(flatten(callbackRoute.props.Environment.Variables.INFERENCE_CALLBACK_SECRET_ARN)).toMatch(byName);
    expect(actionsOf(statementsOf(withPlane.resources, callbackRoute.logicalId))).toContain(
      'secretsmanager:GetSecretValue',
    );
  });

  it('works its own queue with partial-batch answers, reads inputs, writes outputs, and never touches the table', () => {
    const statements = statementsOf(withPlane.resources, plane.logicalId);
    const actions = actionsOf(statements);
    expect(actions.some((action) => action.startsWith('dynamodb:'))).toBe(false);
    const on = (action: string) =>
      statements.filter((s) => actionsOf([s]).includes(action)).flatMap((s) => [s.Resource].flat().map(flatten));
    expect(
      on('s3:GetObject')
        .map((arn) => /\/(inputs|uploads)\/\*$/.exec(arn)?.[1])
        .sort(),
    ).toEqual(['inputs', 'uploads']);
    expect(on('s3:PutObject').map((arn) => /\/(\w+)\/\*$/.exec(arn)?.[1])).toEqual(['outputs']);
    const mapping = ofType(withPlane.resources, 'AWS::Lambda::EventSourceMapping').find(
      ([, m]) => m.Properties!.FunctionName.Ref === plane.logicalId,
    )!;
    expect(mapping[1].Properties).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'] });
    expect(on('sqs:SendMessage').map(flatten)).toEqual([flatten(mapping[1].Properties!.EventSourceArn)]);
  });

  it('is sized for OCR: a full vCPU of memory, one submission per invocation, and its engine read from beside the handler', () => {
    expect(plane.props.MemorySize).toBe(OCR_PLANE_MEMORY_MB);
    expect(plane.props.Environment.Variables[OCR_ASSETS_VARIABLE]).toBe(OCR_ASSETS_FOLDER);
    const mapping = ofType(withPlane.resources, 'AWS::Lambda::EventSourceMapping').find(
      ([, m]) => m.Properties!.FunctionName.Ref === plane.logicalId,
    )!;
    expect(mapping[1].Properties).toMatchObject({ BatchSize: 1 });
    const fixture = synth({ fixturePlane: true }).functions.get('fixture-inference-plane')!;
    expect(fixture.props.MemorySize).toBe(512);
    expect(fixture.props.Environment.Variables[OCR_ASSETS_VARIABLE]).toBeUndefined();
  });

  it('costs at most 11 resources: the plane and its generated secret', () => {
    const without = synth({});
    expect(Object.keys(withPlane.resources).length - Object.keys(without.resources).length).toBeLessThanOrEqual(11);
    expect(without.functions.has('reference-inference-plane')).toBe(false);
    expect(ofType(without.resources, 'AWS::Lambda::Url')).toHaveLength(0);
    expect(
      without.functions.get('work-queue-consumer')!.props.Environment.Variables.INFERENCE_PLANE_URL,
    ).toBeUndefined();
  });

  it('uses a named callback secret instead of generating one', () => {
    const named = synth({ referencePlane: true, inferenceCallbackSecretName: 'staging/inference-callback' });
    expect(ofType(named.resources, 'AWS::SecretsManager::Secret')).toHaveLength(0);
    const arn = flatten(
      named.functions.get('reference-inference-plane')!.props.Environment.Variables.INFERENCE_CALLBACK_SECRET_ARN,
    );
    expect(arn).toContain(':secret:staging/inference-callback');
    expect(
      flatten(named.functions.get('work-queue-consumer')!.props.Environment.Variables.INFERENCE_CALLBACK_SECRET_ARN),
    ).toBe(arn);
  });
});
