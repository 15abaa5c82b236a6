import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type App, Stack, Validations } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks, type NagPack, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/functions.js';
import { productionSettings } from '../../lib/production-settings.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import { EVERY_PRODUCTION_SETTING, testApp } from './template.js';

/** The two packs `bin/app.ts` registers. */
const packs = (): NagPack[] => [new AwsSolutionsChecks(), new ServerlessChecks()];

/**
 * cdk-nag 3 is a CDK policy-validation plugin: `validateScope` returns its report directly
 * (violations are exactly the unacknowledged findings, errors and warnings alike), and a synth
 * with the plugin registered throws on any of them.
 */
function findings(app: App): string[] {
  return packs().flatMap((pack) =>
    pack
      .validateScope(app)
      .violations.flatMap((v) => v.violatingResources.map((r) => `${v.severity} ${v.ruleName} at ${r.constructPath}`)),
  );
}

const acknowledgedIds = (entry: { type: string; data?: unknown }): string[] =>
  entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY && entry.data
    ? Object.keys(entry.data as Record<string, string>).map((id) => id.replace(/^annotation::/i, ''))
    : [];

/**
 * Every acknowledgement no finding of either pack uses, as `<construct path>|<rule>`. cdk-nag looks
 * an acknowledgement up from the finding's resource through its ancestors; each one it finds is
 * recorded, and what is left was acknowledged for nothing.
 */
function staleAcknowledgements(app: App): string[] {
  const used = new Set<string>();
  for (const pack of packs()) {
    // the lookup cdk-nag makes for every finding (NagPack.isAcknowledged), recording where it succeeds
    (pack as unknown as { isAcknowledged: (resource: IConstruct, rule: string) => boolean }).isAcknowledged = (
      resource,
      rule,
    ) => {
      for (let current: IConstruct | undefined = resource; current; current = current.node.scope) {
        if (current.node.metadata.some((entry) => acknowledgedIds(entry).includes(rule))) {
          used.add(`${current.node.path}|${rule}`);
          return true;
        }
      }
      return false;
    };
    pack.validateScope(app);
  }
  return app.node
    .findAll()
    .flatMap((construct) =>
      construct.node.metadata.flatMap(acknowledgedIds).map((rule) => `${construct.node.path}|${rule}`),
    )
    .filter((acknowledgement) => !used.has(acknowledgement));
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
  // every switch on: custom domain, CloudFront web ACL, alarm email, origin protection, the reference plane
  new AutomotiveInferenceStack(app, 'NagEverySwitchStack', {
    env: { account: '123456789012', region: 'eu-west-1' },
    management: { signup: 'cognito', referencePlane: true, localPayments: true, stripeSecretName: 'ais/stripe' },
    production: productionSettings((name) => EVERY_PRODUCTION_SETTING[name]),
    integrationTimeoutSeconds: 45,
  });
  // the firewall turned off
  new AutomotiveInferenceStack(app, 'NagNoFirewallStack', {
    production: productionSettings((name) => (name === 'firewall' ? 'false' : undefined)),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
});

describe('cdk-nag AwsSolutions and Serverless', () => {
  it('reports no unacknowledged error or warning', () => {
    expect(findings(app)).toEqual([]);
  });

  it('leaves no acknowledgement stale: each one covers a finding of the stack it is made in', () => {
    expect(staleAcknowledgements(app)).toEqual([]);
  });

  // six whole stacks: about a minute of CPU alone, several on a busy shared runner
  it('lets the app synthesise with the plugin registered (the plugin fails the synth on any finding)', {
    timeout: 400_000,
  }, () => {
    expect(() => app.synth()).not.toThrow();
  });

  it('does report findings when there are some (the check is not vacuous)', () => {
    const bad = testApp();
    new Queue(new Stack(bad, 'Bad'), 'PlainQueue');
    expect(findings(bad)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/AwsSolutions-SQS3 at Bad\/PlainQueue/),
        expect.stringMatching(/AwsSolutions-SQS4 at Bad\/PlainQueue/),
        expect.stringMatching(/Serverless-SQSRedrivePolicy at Bad\/PlainQueue/),
      ]),
    );
    // and an acknowledgement nothing needs is caught
    Validations.of(bad.node.findAll().find((c) => c.node.id === 'PlainQueue')!).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'a queue is no bucket: nothing for this acknowledgement to cover',
    });
    expect(staleAcknowledgements(bad)).toEqual(['Bad/PlainQueue|AwsSolutions-S1']);
  });

  it('acknowledges only documented rules, each with a written reason', () => {
    const acknowledged = acknowledgements(app);
    const nagRules = [...acknowledged.keys()].filter((id) => /^(AwsSolutions|Serverless)-/.test(id));
    expect(nagRules.length).toBeGreaterThan(0);
    const deployDoc = readFileSync(join(PROJECT_ROOT, 'docs/internals/deploy.md'), 'utf8');
    for (const id of nagRules) {
      for (const reason of acknowledged.get(id)!) expect(reason.length, id).toBeGreaterThan(20);
      // the rule (without the finding suffix) is listed with its reason in the deploy guide
      const rule = id.replace(/\[.*$/, '');
      expect(deployDoc, `docs/internals/deploy.md lists ${rule}`).toContain(rule);
    }
  });
});
