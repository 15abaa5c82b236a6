import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CloudAssembly } from '../../../../local/assembly/cloud-assembly.js';
import { Deployment } from '../../../../local/assembly/deployment.js';
import { writeCloudAssembly } from '../../../support/cloud-assembly.js';

/** A stack and a nested stack, with one staged asset. */
const written = writeCloudAssembly(
  {
    main: {
      Parameters: { Flavour: { Type: 'String', Default: 'plain' } },
      Conditions: { IsPlain: { 'Fn::Equals': [{ Ref: 'Flavour' }, 'plain'] } },
      Resources: {
        Fn: { Type: 'AWS::Lambda::Function', Properties: { Code: { S3Key: 'abc.zip' } } },
        AVeryLongLogicalIdForAFunctionThatCloudFormationWouldHaveToShortenABC123: {
          Type: 'AWS::Lambda::Function',
          Properties: {},
        },
        Bucket: { Type: 'AWS::S3::Bucket' },
        Queue: { Type: 'AWS::SQS::Queue' },
        Api: { Type: 'AWS::ApiGateway::RestApi', Properties: { Name: 'shop' } },
        Nested: {
          Type: 'AWS::CloudFormation::Stack',
          Properties: { Parameters: { FnArn: { 'Fn::GetAtt': ['Fn', 'Arn'] }, QueueRef: { Ref: 'Queue' } } },
          Metadata: { 'aws:asset:path': 'Shop.Nested.template.json' },
        },
      },
      Outputs: { FromNested: { Value: { 'Fn::GetAtt': ['Nested', 'Outputs.Echo'] } } },
    },
    nested: {
      'Shop.Nested.template.json': {
        Parameters: { FnArn: { Type: 'String' }, QueueRef: { Type: 'String' } },
        Resources: { Inner: { Type: 'AWS::Logs::LogGroup' } },
        Outputs: {
          Echo: { Value: { 'Fn::Join': ['|', [{ Ref: 'FnArn' }, { Ref: 'QueueRef' }, { Ref: 'AWS::StackName' }]] } },
        },
      },
    },
  },
  'eu-west-1',
  ['abc'],
);
const dir = written.directory;
afterAll(() => written.remove());

const assembly = new CloudAssembly(dir);
const deployment = new Deployment(assembly);
const root = assembly.stacks.find((stack) => !stack.parent)!;
const resolve = (value: unknown) => deployment.resolve(value, root);
const target = (logicalId: string) => assembly.resources().find((candidate) => candidate.logicalId === logicalId)!;

describe('reading a cloud assembly', () => {
  it('reads the stacks the manifest names, nested stacks included, and the region of their environment', () => {
    expect(assembly.stacks.map((stack) => stack.stackName)).toEqual(['Shop', 'Shop-Nested']);
    expect(assembly.region).toBe('eu-west-1');
    expect(assembly.resources('AWS::Lambda::Function').map((r) => r.logicalId)).toHaveLength(2);
  });

  it('finds the staged asset of an object key a template names', () => {
    expect(assembly.assetPath('abc.zip')).toBe(join(dir, 'asset.abc'));
    expect(() => assembly.assetPath('missing.zip')).toThrow(/no asset missing\.zip/);
  });
});

describe('resolving intrinsic functions as CloudFormation would', () => {
  it('gives resources CloudFormation-style generated names and ARNs, cut to the service limit with a hash', () => {
    expect(resolve({ Ref: 'Fn' })).toBe('Shop-Fn');
    expect(resolve({ 'Fn::GetAtt': ['Fn', 'Arn'] })).toBe('arn:aws:lambda:eu-west-1:000000000000:function:Shop-Fn');
    const long = String(resolve({ Ref: 'AVeryLongLogicalIdForAFunctionThatCloudFormationWouldHaveToShortenABC123' }));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^Shop-AVeryLong.*-[0-9a-f]{8}$/);
    expect(deployment.generatedName(target('Bucket'), 63, true)).toBe('shop-bucket');
  });

  it('resolves Join, Sub (attributes, variables, escapes), Select, Split, If with conditions, and drops AWS::NoValue', () => {
    expect(resolve({ 'Fn::Join': ['/', ['a', { Ref: 'AWS::Region' }, { Ref: 'AWS::AccountId' }]] })).toBe(
      'a/eu-west-1/000000000000',
    );
    expect(resolve({ 'Fn::Sub': '${Fn.Arn}:${AWS::Partition}:${!Literal}' })).toBe(
      'arn:aws:lambda:eu-west-1:000000000000:function:Shop-Fn:aws:${Literal}',
    );
    expect(resolve({ 'Fn::Sub': ['${Greeting}, ${Flavour}', { Greeting: 'hello' }] })).toBe('hello, plain');
    expect(resolve({ 'Fn::Select': [1, { 'Fn::Split': [',', 'x,y,z'] }] })).toBe('y');
    expect(resolve({ 'Fn::If': ['IsPlain', 'yes', 'no'] })).toBe('yes');
    expect(resolve({ keep: 1, drop: { Ref: 'AWS::NoValue' }, list: ['a', { Ref: 'AWS::NoValue' }] })).toEqual({
      keep: 1,
      list: ['a'],
    });
    expect(() => resolve({ 'Fn::ImportValue': 'x' })).toThrow(/Fn::ImportValue .* not resolved/);
  });

  it("passes a nested stack its parent's values through its parameters, and reads its outputs back", () => {
    deployment.record(target('Queue'), {
      ref: 'http://127.0.0.1:1/000000000000/shop-queue',
      attributes: { Arn: 'arn:aws:sqs:eu-west-1:000000000000:shop-queue' },
    });
    expect(resolve({ 'Fn::GetAtt': ['Nested', 'Outputs.Echo'] })).toBe(
      'arn:aws:lambda:eu-west-1:000000000000:function:Shop-Fn|http://127.0.0.1:1/000000000000/shop-queue|Shop-Nested',
    );
  });

  it('makes the public URLs of the deployment local where strings are resolved', () => {
    const apiId = resolve({ Ref: 'Api' });
    deployment.addPublicUrl(`https://${apiId}.execute-api.eu-west-1.amazonaws.com/prod`, 'http://127.0.0.1:3000');
    const docsUrl = {
      'Fn::Join': [
        '',
        [
          'https://',
          { Ref: 'Api' },
          '.execute-api.',
          { Ref: 'AWS::Region' },
          '.',
          { Ref: 'AWS::URLSuffix' },
          '/prod/docs',
        ],
      ],
    };
    expect(deployment.resolveString(docsUrl, root)).toBe('http://127.0.0.1:3000/docs');
  });
});
