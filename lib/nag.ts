import { Aws, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * How cdk-nag names a policy resource in a finding (`arn:<AWS::Partition>:…`): the ARN resolved in
 * its stack, with each `Ref` as `<Name>` and each `Fn::GetAtt` as `<Logical.Attr>`. A stack whose
 * env names a region or account gets those literally, so an acknowledgement must be built this way
 * rather than written with `<AWS::Region>` by hand (`cdk synth` always knows the region).
 */
export function nagResource(scope: IConstruct, arn: string): string {
  return flatten(Stack.of(scope).resolve(arn));
}

/** `AwsSolutions-IAM5` acknowledgement id for one wildcard resource ARN. */
export function wildcardResourceFinding(scope: IConstruct, arn: string): string {
  return `AwsSolutions-IAM5[Resource::${nagResource(scope, arn)}]`;
}

/** The CDK bootstrap asset bucket's objects, as this stack's synthesizer names the bucket. */
export function assetBucketObjectsArn(scope: IConstruct): string {
  const stack = Stack.of(scope);
  return `arn:${Aws.PARTITION}:s3:::cdk-hnb659fds-assets-${stack.account}-${stack.region}/*`;
}

function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    if (typeof node.Ref === 'string') return `<${node.Ref}>`;
    const getAtt = node['Fn::GetAtt'];
    if (Array.isArray(getAtt)) return `<${getAtt.join('.')}>`;
    const join = node['Fn::Join'];
    if (Array.isArray(join) && typeof join[0] === 'string' && Array.isArray(join[1]))
      return (join[1] as unknown[]).map(flatten).join(join[0]);
  }
  return JSON.stringify(value);
}
