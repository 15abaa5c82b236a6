import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type App, Stack, Validations } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/functions.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import { testApp } from './template.js';

/**
 * cdk-nag 3 is a CDK policy-validation plugin: `validateScope` returns its report directly
 * (violations are exactly the unacknowledged findings, errors and warnings alike), and a synth
 * with the plugin registered throws on any of them.
 */
function findings(app: App): string[] {
  return new AwsSolutionsChecks()
    .validateScope(app)
    .violations.flatMap((v) => v.violatingResources.map((r) => `${v.severity} ${v.ruleName} at ${r.constructPath}`));
}

/** Every acknowledgement recorded in the tree: rule id → reasons. */
function acknowledgements(app: App): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const construct of app.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY || !entry.data) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        const rule = id.replace(/^annotation::/i, '');
        out.set(rule, [...(out.get(rule) ?? []), reason]);
      }
    }
  }
  return out;
}

let app: App;

beforeAll(() => {
  app = testApp();
  new AutomotiveInferenceStack(app, 'NagStack');
  // with every deploy-time setting (runtime secrets, the inference plane, the issuer) and the region
  // `cdk synth` always knows: cdk-nag then prints the region literally in each finding
  const management = {
    jwtIssuer: 'https://issuer.example',
    jwtAudience: 'ais-mgmt',
    stripeSecretName: 'ais/stripe',
    inferenceCallbackSecretName: 'ais/inference-callback',
    inferencePlaneUrl: 'https://plane.example/v1/jobs',
  };
  new AutomotiveInferenceStack(app, 'NagManagedStack', { env: { region: 'us-east-1' }, management });
  // as `cdk deploy` with credentials synthesises it: account and region both known
  new AutomotiveInferenceStack(app, 'NagDeployStack', {
    env: { account: '123456789012', region: 'eu-west-1' },
    management,
  });
  // the stack's own user pool and its triggers (-c signup=cognito)
  new AutomotiveInferenceStack(app, 'NagSignUpStack', {
    env: { account: '123456789012', region: 'eu-west-1' },
    management: { signup: 'cognito' },
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
});

describe('cdk-nag AwsSolutions', () => {
  it('reports no unacknowledged error or warning', () => {
    expect(findings(app)).toEqual([]);
  });

  it('lets the app synthesise with the plugin registered (the plugin fails the synth on any finding)', () => {
    expect(() => app.synth()).not.toThrow();
  });

  it('does report findings when there are some (the check is not vacuous)', () => {
    const bad = testApp();
    new Queue(new Stack(bad, 'Bad'), 'PlainQueue');
    expect(findings(bad)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/AwsSolutions-SQS3 at Bad\/PlainQueue/),
        expect.stringMatching(/AwsSolutions-SQS4 at Bad\/PlainQueue/),
      ]),
    );
  });

  it('acknowledges only documented rules, each with a written reason', () => {
    const acknowledged = acknowledgements(app);
    const nagRules = [...acknowledged.keys()].filter((id) => id.startsWith('AwsSolutions-'));
    expect(nagRules.length).toBeGreaterThan(0);
    const deployDoc = readFileSync(join(PROJECT_ROOT, 'docs/deploy.md'), 'utf8');
    for (const id of nagRules) {
      for (const reason of acknowledged.get(id)!) expect(reason.length, id).toBeGreaterThan(20);
      // the rule (without the finding suffix) is listed with its reason in the deploy guide
      const rule = id.replace(/\[.*$/, '');
      expect(deployDoc, `docs/deploy.md lists ${rule}`).toContain(rule);
    }
  });
});
