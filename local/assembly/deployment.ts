import { createHash } from 'node:crypto';
import type { AssemblyStack, CloudAssembly, StackResource } from './cloud-assembly.js';

/** What a resource is once "deployed": what `Ref` gives, and what each `Fn::GetAtt` attribute gives. */
export interface Physical {
  ref: string;
  attributes: Record<string, string>;
}

const NO_VALUE = Symbol('AWS::NoValue');
const ACCOUNT_ID = '000000000000';

const shortHash = (text: string, length = 8) => createHash('sha256').update(text).digest('hex').slice(0, length);

/** CloudFormation's generated names are `<stack>-<logical id>-<suffix>`, cut to the service's limit; ours keep a hash of the whole when cut. */
function generatedName(base: string, limit: number): string {
  if (base.length <= limit) return base;
  const suffix = `-${shortHash(base)}`;
  return `${base.slice(0, limit - suffix.length)}${suffix}`;
}

/**
 * The assembly as if CloudFormation had deployed it to the local stand-ins: physical names and
 * attributes for every resource (generated the way CloudFormation generates them, or recorded by
 * provisioning where a stand-in chose them, like a queue's URL), and the intrinsic functions
 * (`Ref`, `Fn::GetAtt`, `Fn::Join`, `Fn::Sub`, …) resolved against them.
 */
export class Deployment {
  readonly region: string;
  readonly accountId = ACCOUNT_ID;
  private readonly recorded = new Map<string, Physical>();
  private readonly urls: Array<[string, string]> = [];

  constructor(
    readonly assembly: CloudAssembly,
    /** put before every generated name, so tests can share stand-ins */
    private readonly namePrefix = '',
  ) {
    this.region = assembly.region;
  }

  /** Sets what a resource resolves to (provisioning does, where a stand-in picked the name or URL). */
  record(target: StackResource, physical: Physical): void {
    this.recorded.set(key(target.stack, target.logicalId), physical);
  }

  /** Public URLs of the deployment (an API stage's `https://<id>.execute-api…/<stage>`) and the local address that serves them. */
  addPublicUrl(deployed: string, local: string): void {
    this.urls.push([deployed, local]);
  }

  /** `text` with every public URL of the deployment replaced by its local address. */
  localize(text: string): string {
    return this.urls.reduce((result, [deployed, local]) => result.split(deployed).join(local), text);
  }

  physicalOf(target: StackResource): Physical {
    return this.recorded.get(key(target.stack, target.logicalId)) ?? this.generated(target);
  }

  /** A name as CloudFormation would generate it for a resource without an explicit one. */
  generatedName(target: StackResource, limit: number, lowerCase = false): string {
    const name = generatedName(`${this.namePrefix}${target.stack.stackName}-${target.logicalId}`, limit);
    return lowerCase ? name.toLowerCase().replace(/[^a-z0-9.-]/g, '-') : name;
  }

  arn(service: string, resource: string, region = this.region): string {
    return `arn:aws:${service}:${region}:${ACCOUNT_ID}:${resource}`;
  }

  /** Resolves every intrinsic function in `value`, as CloudFormation does when it creates the stack. */
  resolve(value: unknown, stack: AssemblyStack): unknown {
    const resolved = this.resolveValue(value, stack);
    return resolved === NO_VALUE ? undefined : resolved;
  }

  /** `resolve` for a value that must come out a string (an environment variable, a URL); public URLs become their local addresses. */
  resolveString(value: unknown, stack: AssemblyStack): string {
    const resolved = this.resolve(value, stack);
    if (typeof resolved === 'string') return this.localize(resolved);
    if (typeof resolved === 'number' || typeof resolved === 'boolean') return String(resolved);
    throw new Error(`expected a string in stack ${stack.stackName}, got ${JSON.stringify(resolved)}`);
  }

  private resolveValue(value: unknown, stack: AssemblyStack): unknown {
    if (Array.isArray(value))
      return value.map((item) => this.resolveValue(item, stack)).filter((item) => item !== NO_VALUE);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    if (entries.length === 1) {
      const [name, argument] = entries[0]!;
      if (name === 'Ref') return this.ref(String(argument), stack);
      if (name.startsWith('Fn::') || name === 'Condition') return this.intrinsic(name, argument, stack);
    }
    const object: Record<string, unknown> = {};
    for (const [name, item] of entries) {
      const resolved = this.resolveValue(item, stack);
      if (resolved !== NO_VALUE) object[name] = resolved;
    }
    return object;
  }

  private intrinsic(name: string, argument: unknown, stack: AssemblyStack): unknown {
    const args = () => this.resolveValue(argument, stack) as unknown[];
    switch (name) {
      case 'Fn::GetAtt': {
        const [logicalId, attribute] =
          typeof argument === 'string' ? splitOnce(argument, '.') : (argument as [string, string]);
        return this.getAtt(logicalId, String(this.resolveValue(attribute, stack)), stack);
      }
      case 'Fn::Join': {
        const [separator, list] = args() as [string, unknown[]];
        return list.map((item) => String(item)).join(separator);
      }
      case 'Fn::Sub':
        return this.sub(argument, stack);
      case 'Fn::Select': {
        const [index, list] = args() as [number | string, unknown[]];
        return list[Number(index)];
      }
      case 'Fn::Split': {
        const [separator, text] = args() as [string, string];
        return text.split(separator);
      }
      case 'Fn::Base64':
        return Buffer.from(String(this.resolveValue(argument, stack))).toString('base64');
      case 'Fn::GetAZs':
        return ['a', 'b', 'c'].map((zone) => `${this.region}${zone}`);
      case 'Fn::If': {
        const [condition, whenTrue, whenFalse] = argument as [string, unknown, unknown];
        return this.resolveValue(this.condition(condition, stack) ? whenTrue : whenFalse, stack);
      }
      case 'Condition':
        return this.condition(String(argument), stack);
      case 'Fn::Equals': {
        const [a, b] = args();
        return JSON.stringify(a) === JSON.stringify(b);
      }
      case 'Fn::Not':
        return !args()[0];
      case 'Fn::And':
        return args().every(Boolean);
      case 'Fn::Or':
        return args().some(Boolean);
      default:
        throw new Error(`${name} (in stack ${stack.stackName}) is not resolved by the local runtime`);
    }
  }

  /** Whether a named condition of the stack holds. */
  condition(name: string, stack: AssemblyStack): boolean {
    const definition = stack.template.Conditions?.[name];
    if (definition === undefined) throw new Error(`no condition ${name} in stack ${stack.stackName}`);
    return Boolean(this.resolveValue(definition, stack));
  }

  private ref(name: string, stack: AssemblyStack): unknown {
    switch (name) {
      case 'AWS::Region':
        return this.region;
      case 'AWS::AccountId':
        return ACCOUNT_ID;
      case 'AWS::Partition':
        return 'aws';
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
      case 'AWS::StackName':
        return stack.stackName;
      case 'AWS::StackId':
        return this.arn('cloudformation', `stack/${stack.stackName}/${shortHash(stack.stackName, 32)}`);
      case 'AWS::NoValue':
        return NO_VALUE;
    }
    if (stack.template.Parameters?.[name]) return this.parameter(name, stack);
    return this.physicalOf(this.resourceOf(name, stack)).ref;
  }

  private parameter(name: string, stack: AssemblyStack): unknown {
    const passed = stack.parent?.stack.template.Resources[stack.parent.logicalId]?.Properties?.Parameters as
      | Record<string, unknown>
      | undefined;
    if (stack.parent && passed && name in passed) return this.resolveValue(passed[name], stack.parent.stack);
    const declared = stack.template.Parameters![name]!;
    if ('Default' in declared) return declared.Default;
    throw new Error(`parameter ${name} of stack ${stack.stackName} has no value`);
  }

  private getAtt(logicalId: string, attribute: string, stack: AssemblyStack): unknown {
    const target = this.resourceOf(logicalId, stack);
    if (target.resource.Type === 'AWS::CloudFormation::Stack' && attribute.startsWith('Outputs.')) {
      const nested = this.assembly.stacks.find(
        (candidate) => candidate.parent?.stack === stack && candidate.parent.logicalId === logicalId,
      );
      const output = nested?.template.Outputs?.[attribute.slice('Outputs.'.length)];
      if (!nested || !output) throw new Error(`no ${attribute} of nested stack ${logicalId}`);
      return this.resolveValue(output.Value, nested);
    }
    const value = this.physicalOf(target).attributes[attribute];
    if (value === undefined)
      throw new Error(`${logicalId} (${target.resource.Type}) has no attribute ${attribute} in the local runtime`);
    return value;
  }

  private sub(argument: unknown, stack: AssemblyStack): string {
    const [text, variables] =
      typeof argument === 'string' ? [argument, {}] : (argument as [string, Record<string, unknown>]);
    return text.replace(/\$\{(!?)([^}]+)\}/g, (_match, literal: string, name: string) => {
      if (literal) return `\${${name}}`;
      if (name in variables) return String(this.resolveValue(variables[name], stack));
      if (name.includes('.') && !name.startsWith('AWS::')) {
        const [logicalId, attribute] = splitOnce(name, '.');
        return String(this.getAtt(logicalId, attribute, stack));
      }
      return String(this.ref(name, stack));
    });
  }

  private resourceOf(logicalId: string, stack: AssemblyStack): StackResource {
    const resource = stack.template.Resources[logicalId];
    if (!resource) throw new Error(`no resource ${logicalId} in stack ${stack.stackName}`);
    return { stack, logicalId, resource };
  }

  /** What an unprovisioned resource resolves to: CloudFormation's generated name, and ARNs built from it. */
  private generated(target: StackResource): Physical {
    const properties = target.resource.Properties ?? {};
    const explicit = (property: string) =>
      typeof properties[property] === 'string' ? (properties[property] as string) : undefined;
    switch (target.resource.Type) {
      case 'AWS::Lambda::Function': {
        const name = explicit('FunctionName') ?? this.generatedName(target, 64);
        return { ref: name, attributes: { Arn: this.arn('lambda', `function:${name}`) } };
      }
      case 'AWS::StepFunctions::StateMachine': {
        const name = this.optionalString(properties.StateMachineName, target.stack) ?? this.generatedName(target, 80);
        const arn = this.arn('states', `stateMachine:${name}`);
        return { ref: arn, attributes: { Arn: arn, Name: name } };
      }
      case 'AWS::ApiGateway::RestApi': {
        const id = shortHash(`${target.stack.stackName}/${target.logicalId}`, 10);
        return { ref: id, attributes: { RootResourceId: `${id}-root` } };
      }
      case 'AWS::ApiGateway::Stage':
        return { ref: String(properties.StageName ?? target.logicalId), attributes: {} };
      case 'AWS::IAM::Role': {
        const name = explicit('RoleName') ?? this.generatedName(target, 64);
        return {
          ref: name,
          attributes: { Arn: `arn:aws:iam::${ACCOUNT_ID}:role/${name}`, RoleId: shortHash(name, 21).toUpperCase() },
        };
      }
      case 'AWS::Logs::LogGroup': {
        const name = explicit('LogGroupName') ?? this.generatedName(target, 512);
        return { ref: name, attributes: { Arn: this.arn('logs', `log-group:${name}:*`) } };
      }
      case 'AWS::CloudFront::Function':
        return {
          ref: target.logicalId,
          attributes: { FunctionARN: `arn:aws:cloudfront::${ACCOUNT_ID}:function/${target.logicalId}` },
        };
      default: {
        // anything the local runtime does not run: stable placeholders, so references to it still resolve
        const id = this.generatedName(target, 128);
        return {
          ref: id,
          attributes: new Proxy({} as Record<string, string>, { get: (_, attribute) => `${id}.${String(attribute)}` }),
        };
      }
    }
  }

  private optionalString(value: unknown, stack: AssemblyStack): string | undefined {
    return value === undefined ? undefined : this.resolveString(value, stack);
  }
}

function key(stack: AssemblyStack, logicalId: string): string {
  return `${stack.stackName}/${logicalId}`;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return [text.slice(0, at), text.slice(at + 1)];
}
