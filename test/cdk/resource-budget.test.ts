import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { functionName, type RouteDefinition } from '../../lambdas/http/routes/define.js';
import { ROUTES } from '../../lambdas/http/routes/index.js';
import { PROJECT_ROOT } from '../../lib/functions.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import { EVERY_PRODUCTION_SETTING, testApp } from './template.js';

/** Half of CloudFormation's 500 resources per template: room for the routes and settings still to come. */
const TEMPLATE_BUDGET = 250;
const ROUTE_COST = 3;

/**
 * Every optional context switch of `bin/app.ts` (docs/internals/deploy.md), as `cdk deploy -c name=value`
 * hands them to the app: strings. `inferencePlaneUrl` is left out: `referencePlane=true` deploys
 * the plane the workers then call.
 */
const EVERY_CONTEXT: Record<string, string> = {
  docsUrl: 'https://docs.example/docs',
  jwtIssuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Example',
  jwtAudience: 'ais-dashboard',
  stripeSecretName: 'ais/stripe',
  dashboardUrl: 'https://d111111abcdef8.cloudfront.net/dashboard',
  inferenceCallbackSecretName: 'ais/inference-callback',
  localPayments: 'true',
  integrationTimeoutSeconds: '45',
  signup: 'cognito',
  referencePlane: 'true',
  ...EVERY_PRODUCTION_SETTING,
};

const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the CDK app (`bin/app.ts`, cdk-nag included) as `cdk synth` runs it: cdk.json's context
 * plus the given switches, bundling skipped (the budget does not depend on bundle contents).
 */
async function synthApp(context: Record<string, string>): Promise<{ code: number; stderr: string; outdir: string }> {
  const outdir = mkdtempSync(join(tmpdir(), 'ais-synth-'));
  outdirs.push(outdir);
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  const env = {
    ...process.env,
    CDK_OUTDIR: outdir,
    CDK_CONTEXT_JSON: JSON.stringify({ ...cdkJson.context, ...context, 'aws:cdk:bundling-stacks': [] }),
  };
  try {
    const { stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/app.ts'], {
      cwd: PROJECT_ROOT,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stderr, outdir };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? 1, stderr: failed.stderr ?? '', outdir };
  }
}

/** Resources per template of a cloud assembly directory: the main template and every nested one. */
function templateSizes(outdir: string): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const file of readdirSync(outdir).filter((f) => f.endsWith('.template.json'))) {
    const template = JSON.parse(readFileSync(join(outdir, file), 'utf8')) as { Resources: Record<string, unknown> };
    sizes[file] = Object.keys(template.Resources).length;
  }
  return sizes;
}

/** Resources per stack (main and nested) of an in-process synth, by construct path. */
function stackSizes(stack: AutomotiveInferenceStack): Record<string, number> {
  const stacks: Stack[] = [stack, ...stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack)];
  return Object.fromEntries(
    stacks.map((s) => [s.node.path, Object.keys(Template.fromStack(s).toJSON().Resources).length]),
  );
}

function growth(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([path, size]) => [path, size - (before[path] ?? 0)]));
}

const sum = (sizes: Record<string, number>) => Object.values(sizes).reduce((a, b) => a + b, 0);

/** The deployed routes (no local payment pages) and the stack they make, synthesised once for the route-cost tests. */
const deployed = ROUTES.filter((r) => !r.localOnly);
let baseSizes: Record<string, number> | undefined;
const base = () => (baseSizes ??= stackSizes(new AutomotiveInferenceStack(testApp(), 'Base', { routes: deployed })));
const withRoute = (extra: RouteDefinition) =>
  growth(base(), stackSizes(new AutomotiveInferenceStack(testApp(), 'Base', { routes: [...deployed, extra] })));

describe('the resource budget', () => {
  it(`keeps every template of the assembly at or under ${TEMPLATE_BUDGET} resources with every context switch on, and warns of nothing`, async () => {
    const { code, stderr, outdir } = await synthApp(EVERY_CONTEXT);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const sizes = templateSizes(outdir);
    expect(Object.keys(sizes).length).toBeGreaterThanOrEqual(4);
    for (const [template, size] of Object.entries(sizes))
      expect(size, `${template}: ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(TEMPLATE_BUDGET);
    // `cdk synth --quiet` prints the assembly's info, warning and error annotations: there are none
    const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8')) as {
      artifacts: Record<string, { metadata?: Record<string, { type: string; data: unknown }[]> }>;
    };
    const annotations = Object.values(manifest.artifacts)
      .flatMap((artifact) => Object.entries(artifact.metadata ?? {}))
      .flatMap(([path, entries]) =>
        entries
          .filter((e) => /^aws:cdk:(info|warning|error)$/.test(e.type))
          .map((e) => `${path}: ${JSON.stringify(e.data)}`),
      );
    expect(annotations).toEqual([]);
    // a child process synthesising the whole app: ~20 s of CPU alone, several times that on a busy 2-core runner
  }, 240_000);

  it(`a route served by an existing function costs at most ${ROUTE_COST} resources: its method and its path`, () => {
    const plateRead = deployed.find((r) => r.id === 'infer-plate-read')!;
    const organization = deployed.find((r) => functionName(r) === 'get-organization')!;
    for (const extra of [
      { ...plateRead, id: 'infer-synthetic-read', path: '/v1/synthetic.read' },
      { ...organization, id: 'get-synthetic', path: '/mgmt/v1/synthetic/{id}' },
    ] as RouteDefinition[]) {
      const grown = withRoute(extra);
      expect(sum(grown), `${extra.path}: ${JSON.stringify(grown)}`).toBeLessThanOrEqual(ROUTE_COST);
    }
  });

  it(`a route with a handler of its own costs at most ${ROUTE_COST} resources in each template: method and path in its surface's one; function, log group and invoke permission in the route functions' one`, () => {
    const organization = deployed.find((r) => functionName(r) === 'get-organization')!;
    // an existing module (the local portal page is not deployed without localPayments), with the access of a management read: it joins that role
    const extra: RouteDefinition = {
      ...organization,
      id: 'synthetic-handler',
      path: '/mgmt/v1/synthetic',
      module: new URL('../../lambdas/http/routes/local/local-portal-page.ts', import.meta.url).href,
    };
    const grown = withRoute(extra);
    const { 'Base/Api/ManagementRoutes': methods, 'Base/Api/RouteFunctions': functions, ...others } = grown;
    expect({ methods, functions }).toEqual({ methods: 2, functions: 3 });
    for (const [path, added] of Object.entries(others)) expect(added, path).toBe(0);
  });

  it('refuses an integration timeout that cannot hold the 30 s ceiling, with one line naming the setting', async () => {
    const { code, stderr } = await synthApp({ integrationTimeoutSeconds: '30' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^integrationTimeoutSeconds=30 is not usable: give a whole number of seconds from 32 to 901/,
      ),
    ]);
  }, 120_000);
});
