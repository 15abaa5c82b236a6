import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { ManagementSettings } from '../lib/management-settings.js';
import { productionSettings } from '../lib/production-settings.js';
import { AutomotiveInferenceStack } from '../lib/stack.js';
import { SettingError } from '../lib/wait-ceiling.js';

// CDK announces every bundle it builds ("Bundling asset <path>..."), about forty lines per synth:
// progress, not problems, and `cdk synth --quiet` should print only problems. Nothing else is held back.
const writeStderr = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: unknown, ...rest: never[]) =>
  typeof chunk === 'string' && /^Bundling asset [^\n]*\.\.\.\n$/.test(chunk)
    ? true
    : writeStderr(chunk as string, ...rest)) as typeof process.stderr.write;

const app = new App();

const context = (name: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(name);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'string' && value ? value : undefined;
};
const management: ManagementSettings = {
  ...(context('jwtIssuer') ? { jwtIssuer: context('jwtIssuer') } : {}),
  ...(context('jwtAudience') ? { jwtAudience: context('jwtAudience') } : {}),
  ...(context('jwksUrl') ? { jwksUrl: context('jwksUrl') } : {}),
  ...(context('stripeSecretName') ? { stripeSecretName: context('stripeSecretName') } : {}),
  ...(context('dashboardUrl') ? { dashboardUrl: context('dashboardUrl') } : {}),
  ...(context('inferenceCallbackSecretName')
    ? { inferenceCallbackSecretName: context('inferenceCallbackSecretName') }
    : {}),
  ...(context('inferencePlaneUrl') ? { inferencePlaneUrl: context('inferencePlaneUrl') } : {}),
  localPayments: context('localPayments') === 'true',
  referencePlane: context('referencePlane') === 'true',
  fixturePlane: context('fixturePlane') === 'true',
  ...(context('inferencePlaneModels') !== undefined ? { inferencePlaneModels: context('inferencePlaneModels') } : {}),
  ...(context('signup') === 'cognito' ? { signup: 'cognito' as const } : {}),
  ...(context('signupDomainPrefix') ? { signupDomainPrefix: context('signupDomainPrefix') } : {}),
};
if (context('signup') && context('signup') !== 'cognito') {
  process.stderr.write(`-c signup=${context('signup')}: the one sign-up there is, is -c signup=cognito\n`);
  process.exit(1);
}
const docsUrl = context('docsUrl');
const integrationTimeout = context('integrationTimeoutSeconds');

try {
  const production = productionSettings(context);
  new AutomotiveInferenceStack(app, 'AutomotiveInferenceStack', {
    production,
    // environment-agnostic unless the CLI knows the account (cdk deploy with credentials)
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    ...(docsUrl ? { docsUrl } : {}),
    management,
    ...(integrationTimeout !== undefined ? { integrationTimeoutSeconds: Number(integrationTimeout) } : {}),
  });
} catch (error) {
  // a context value that cannot work: its message alone, not a stack trace
  if (!(error instanceof SettingError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

// cdk-nag 3 is a policy-validation plugin: any unacknowledged finding of either pack fails the synth.
// `-c nag=false` skips it (e.g. for a quick local synth).
if (context('nag') !== 'false') {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
}

app.synth();
