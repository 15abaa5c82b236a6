import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One resource of a CloudFormation template, as the synth wrote it. */
export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Condition?: string;
  Metadata?: Record<string, unknown>;
}

export interface Template {
  Parameters?: Record<string, { Type: string; Default?: unknown }>;
  Conditions?: Record<string, unknown>;
  Resources: Record<string, TemplateResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

/** A stack of the assembly: a top-level one, or a nested stack with the resource of its parent that holds it. */
export interface AssemblyStack {
  /** what CloudFormation would call it: the artifact's name, or `<parent>-<logical id>` for a nested stack */
  stackName: string;
  template: Template;
  parent?: { stack: AssemblyStack; logicalId: string };
}

/** A resource with the stack it lives in (logical ids are unique per stack only). */
export interface StackResource {
  stack: AssemblyStack;
  logicalId: string;
  resource: TemplateResource;
}

interface Manifest {
  artifacts?: Record<
    string,
    { type: string; environment?: string; properties?: { templateFile?: string; stackName?: string; file?: string } }
  >;
}

interface AssetManifest {
  files?: Record<
    string,
    { source: { path?: string; packaging?: string }; destinations: Record<string, { objectKey: string }> }
  >;
}

/**
 * A synthesised cloud assembly (`cdk.out`) read the way CloudFormation would receive it: the
 * templates of every stack (nested stacks included) and, for each asset object key a template
 * names (`<hash>.zip`), the directory or file the synth staged it from.
 */
export class CloudAssembly {
  readonly stacks: AssemblyStack[] = [];
  readonly region: string;
  private readonly assets = new Map<string, string>();

  constructor(readonly directory: string) {
    const manifestFile = join(directory, 'manifest.json');
    if (!existsSync(manifestFile))
      throw new Error(`${directory} holds no cloud assembly (no manifest.json): run \`npx cdk synth\` first`);
    const manifest = readJson<Manifest>(manifestFile);
    const artifacts = Object.entries(manifest.artifacts ?? {});
    for (const [, artifact] of artifacts.filter(([, a]) => a.type === 'cdk:asset-manifest'))
      this.indexAssets(readJson<AssetManifest>(join(directory, artifact.properties!.file!)));
    const stacks = artifacts.filter(([, a]) => a.type === 'aws:cloudformation:stack');
    if (stacks.length === 0) throw new Error(`${directory} holds no CloudFormation stack`);
    const environment = stacks[0]![1].environment ?? '';
    const region = environment.split('/').pop() ?? '';
    this.region = region && region !== 'unknown-region' ? region : 'us-east-1';
    for (const [id, artifact] of stacks)
      this.addStack(
        artifact.properties?.stackName ?? id,
        readJson<Template>(join(directory, artifact.properties!.templateFile!)),
      );
  }

  /** Every resource of every stack, of the given type. */
  resources(type?: string): StackResource[] {
    return this.stacks.flatMap((stack) =>
      Object.entries(stack.template.Resources)
        .filter(([, resource]) => type === undefined || resource.Type === type)
        .map(([logicalId, resource]) => ({ stack, logicalId, resource })),
    );
  }

  /** Where the synth staged the asset a template names by its object key, e.g. `<hash>.zip`. */
  assetPath(objectKey: string): string {
    const path = this.assets.get(objectKey);
    if (!path) throw new Error(`the assembly stages no asset ${objectKey}`);
    return join(this.directory, path);
  }

  private indexAssets(manifest: AssetManifest): void {
    for (const file of Object.values(manifest.files ?? {})) {
      if (!file.source.path) continue;
      for (const destination of Object.values(file.destinations))
        this.assets.set(destination.objectKey, file.source.path);
    }
  }

  private addStack(stackName: string, template: Template, parent?: AssemblyStack['parent']): void {
    const stack: AssemblyStack = { stackName, template, ...(parent ? { parent } : {}) };
    this.stacks.push(stack);
    for (const [logicalId, resource] of Object.entries(template.Resources)) {
      const nestedFile = resource.Metadata?.['aws:asset:path'];
      if (resource.Type !== 'AWS::CloudFormation::Stack' || typeof nestedFile !== 'string') continue;
      this.addStack(`${stackName}-${logicalId}`, readJson<Template>(join(this.directory, nestedFile)), {
        stack,
        logicalId,
      });
    }
  }
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}
