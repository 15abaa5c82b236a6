import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { ManagementSettings } from '../lib/management-settings.js';
import { AutomotiveInferenceStack } from '../lib/stack.js';

const app = new App();

const docsUrl: unknown = app.node.tryGetContext('docsUrl');
const context = (name: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(name);
  return typeof value === 'string' && value ? value : undefined;
};
const management: ManagementSettings = {
  ...(context('jwtIssuer') ? { jwtIssuer: context('jwtIssuer') } : {}),
  ...(context('jwtAudience') ? { jwtAudience: context('jwtAudience') } : {}),
  ...(context('jwksUrl') ? { jwksUrl: context('jwksUrl') } : {}),
  ...(context('stripeSecretName') ? { stripeSecretName: context('stripeSecretName') } : {}),
  ...(context('dashboardUrl') ? { dashboardUrl: context('dashboardUrl') } : {}),
  ...(context('inferenceCallbackSecretName') ? { inferenceCallbackSecretName: context('inferenceCallbackSecretName') } : {}),
  ...(context('inferencePlaneUrl') ? { inferencePlaneUrl: context('inferencePlaneUrl') } : {}),
  localPayments: context('localPayments') === 'true',
  referencePlane: context('referencePlane') === 'true',
};
new AutomotiveInferenceStack(app, 'AutomotiveInferenceStack', {
  // environment-agnostic unless the CLI knows the account (cdk deploy with credentials)
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  ...(typeof docsUrl === 'string' && docsUrl ? { docsUrl } : {}),
  management,
});

// cdk-nag 3 is a policy-validation plugin: any unacknowledged finding fails the synth.
// `-c nag=false` skips it (e.g. for a quick local synth).
const nag: unknown = app.node.tryGetContext('nag');
if (nag !== false && nag !== 'false') {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}

app.synth();
