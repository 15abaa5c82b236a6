import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { FUNCTION_TAG } from '../../lib/functions.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';

/** Shared helpers for the stack's template tests. Nothing here bundles: the app skips bundling. */

export interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** An app that does not bundle (synth in ~0.1 s instead of seconds). */
export function testApp(): App {
  return new App({ context: { 'aws:cdk:bundling-stacks': [] } });
}

export function synthStack(): { app: App; stack: AutomotiveInferenceStack; template: Template; resources: Record<string, CfnResource> } {
  const app = testApp();
  const stack = new AutomotiveInferenceStack(app, 'TestStack');
  const template = Template.fromStack(stack);
  return { app, stack, template, resources: template.toJSON().Resources as Record<string, CfnResource> };
}

/** Our own functions (not CDK's helpers), by the value of their tag. */
export function ownFunctions(resources: Record<string, CfnResource>): Map<string, { logicalId: string; props: Record<string, any> }> {
  const out = new Map<string, { logicalId: string; props: Record<string, any> }>();
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const tag = (resource.Properties?.Tags as { Key: string; Value: string }[] | undefined)?.find((t) => t.Key === FUNCTION_TAG);
    if (tag) out.set(tag.Value, { logicalId, props: resource.Properties ?? {} });
  }
  return out;
}

/** Full path (`/v1/jobs/{id}`) of an API Gateway resource, walking its parents up to the root. */
export function resourcePath(resources: Record<string, CfnResource>, resourceRef: unknown): string {
  const segments: string[] = [];
  let ref = resourceRef as { Ref?: string } | { 'Fn::GetAtt': [string, string] };
  while ('Ref' in ref && ref.Ref) {
    const resource = resources[ref.Ref];
    if (resource?.Type !== 'AWS::ApiGateway::Resource') throw new Error(`not a resource: ${ref.Ref}`);
    segments.unshift(String(resource.Properties!.PathPart));
    ref = resource.Properties!.ParentId;
  }
  return `/${segments.join('/')}`;
}

/** Every statement of every policy attached to the role of this function. */
export function statementsOf(resources: Record<string, CfnResource>, functionLogicalId: string): Statement[] {
  const fn = resources[functionLogicalId]!;
  const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const role = resources[roleId]!;
  const statements: Statement[] = [];
  for (const inline of (role.Properties?.Policies as { PolicyDocument: { Statement: Statement[] } }[] | undefined) ?? []) statements.push(...inline.PolicyDocument.Statement);
  for (const resource of Object.values(resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const roles = resource.Properties!.Roles as { Ref: string }[];
    if (roles.some((r) => r.Ref === roleId)) statements.push(...(resource.Properties!.PolicyDocument.Statement as Statement[]));
  }
  return statements;
}

export function actionsOf(statements: Statement[]): string[] {
  return statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
}

/** A CloudFormation value as a string: intrinsics become `<Logical.Attr>` / `<Ref>` placeholders. */
export function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const v = value as Record<string, any>;
    if ('Fn::Join' in v) return (v['Fn::Join'][1] as unknown[]).map(flatten).join(v['Fn::Join'][0] as string);
    if ('Fn::GetAtt' in v) return `<${v['Fn::GetAtt'][0]}.${v['Fn::GetAtt'][1]}>`;
    if ('Ref' in v) return `<${v.Ref}>`;
  }
  return JSON.stringify(value);
}
