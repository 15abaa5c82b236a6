import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AutomotiveInferenceStack } from '../lib/stack.js';

const app = new App();

const docsUrl: unknown = app.node.tryGetContext('docsUrl');
new AutomotiveInferenceStack(app, 'AutomotiveInferenceStack', {
  // environment-agnostic unless the CLI knows the account (cdk deploy with credentials)
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  ...(typeof docsUrl === 'string' && docsUrl ? { docsUrl } : {}),
});

// cdk-nag 3 is a policy-validation plugin: any unacknowledged finding fails the synth.
// `-c nag=false` skips it (e.g. for a quick local synth).
const nag: unknown = app.node.tryGetContext('nag');
if (nag !== false && nag !== 'false') {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}

app.synth();
