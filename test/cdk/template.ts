import { App, type CfnElement, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { FUNCTION_TAG } from '../../lib/functions.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';

/** Shared helpers for the stack's template tests. Nothing here bundles: the app skips bundling. */

/** Every production setting on (`-c name=value`, lib/production-settings.ts), as the CLI hands them over. */
export const EVERY_PRODUCTION_SETTING: Record<string, string> = {
  domainName: 'api.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  cloudFrontWebAclArn:
    'arn:aws:wafv2:us-east-1:123456789012:global/webacl/ais-edge/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
  alarmEmail: 'oncall@example.com',
  originProtection: 'true',
  firewall: 'true',
  firewallRateLimit: '3000',
  stageRateLimit: '2000',
  stageBurstLimit: '1000',
  mfa: 'required',
  threatProtection: 'enforced',
};

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

/**
 * An app that does not bundle and skips CDK's built-in CloudFormation validation (about 5 s of CPU
 * per synth); `cdk synth` keeps both, and test/cdk/resource-budget.test.ts runs the real app.
 */
export function testApp(): App {
  return new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
}

interface SynthesizedStack {
  app: App;
  stack: AutomotiveInferenceStack;
  template: Template;
  resources: Record<string, CfnResource>;
}

let defaultStack: SynthesizedStack | undefined;

/**
 * The stack with its defaults, synthesised once per worker: the files of the cdk project share their
 * worker's modules (vitest.config.ts), and a synth costs seconds of CPU. Its parts are only read.
 */
export function synthStack(): SynthesizedStack {
  if (!defaultStack) {
    const app = testApp();
    const stack = new AutomotiveInferenceStack(app, 'TestStack');
    defaultStack = { app, stack, template: Template.fromStack(stack), resources: assemblyResources(stack) };
  }
  return defaultStack;
}

/**
 * The resources of a stack and of every stack nested in it as one set, with the references
 * between them resolved as CloudFormation resolves them: a nested stack's parameter becomes the
 * value its parent passes, a parent's `Fn::GetAtt <nested>.Outputs.X` the nested output's value.
 * So a method in the main template names `<Function.Arn>` of a function in the route functions' stack.
 */
export function assemblyResources(stack: Stack): Record<string, CfnResource> {
  const merged: Record<string, CfnResource> = {};
  const collect = (current: Stack, parameters: Record<string, unknown>): Record<string, unknown> => {
    const template = Template.fromStack(current).toJSON() as {
      Resources: Record<string, CfnResource>;
      Outputs?: Record<string, { Value: unknown }>;
    };
    const parameter = (node: Record<string, unknown>) =>
      typeof node.Ref === 'string' && node.Ref in parameters ? parameters[node.Ref] : undefined;
    const resources = substitute(template.Resources, parameter) as Record<string, CfnResource>;
    for (const child of current.node
      .findAll()
      .filter((c): c is NestedStack => c instanceof NestedStack && Stack.of(c.node.scope!) === current)) {
      const childId = current.resolve((child.nestedStackResource as CfnElement).logicalId) as string;
      const outputs = collect(child, resources[childId]!.Properties?.Parameters ?? {});
      Object.assign(
        resources,
        substitute(resources, (node) => {
          const getAtt = node['Fn::GetAtt'];
          return Array.isArray(getAtt) && getAtt[0] === childId && String(getAtt[1]).startsWith('Outputs.')
            ? outputs[String(getAtt[1]).slice('Outputs.'.length)]
            : undefined;
        }),
      );
    }
    for (const [id, resource] of Object.entries(resources)) {
      if (id in merged) throw new Error(`logical id ${id} is in two templates`);
      merged[id] = resource;
    }
    return Object.fromEntries(
      Object.entries(template.Outputs ?? {}).map(([name, output]) => [name, substitute(output.Value, parameter)]),
    );
  };
  collect(stack, {});
  return merged;
}

/** A deep copy of `value` where `replace` may swap any object node for another value. */
function substitute(value: unknown, replace: (node: Record<string, unknown>) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => substitute(item, replace));
  if (value && typeof value === 'object') {
    const replaced = replace(value as Record<string, unknown>);
    if (replaced !== undefined) return replaced;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, replace)]));
  }
  return value;
}

/** Our own functions (not CDK's helpers), by the value of their tag. */
export function ownFunctions(
  resources: Record<string, CfnResource>,
): Map<string, { logicalId: string; props: Record<string, any> }> {
  const out = new Map<string, { logicalId: string; props: Record<string, any> }>();
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const tag = (resource.Properties?.Tags as { Key: string; Value: string }[] | undefined)?.find(
      (t) => t.Key === FUNCTION_TAG,
    );
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
  for (const inline of (role.Properties?.Policies as { PolicyDocument: { Statement: Statement[] } }[] | undefined) ??
    [])
    statements.push(...inline.PolicyDocument.Statement);
  for (const resource of Object.values(resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const roles = resource.Properties!.Roles as { Ref: string }[];
    if (roles.some((r) => r.Ref === roleId))
      statements.push(...(resource.Properties!.PolicyDocument.Statement as Statement[]));
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
