import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../lambdas/http/routes/index.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import { flatten, ownFunctions, testApp, type CfnResource } from './template.js';

describe('management surface wiring', () => {
  let functions: ReturnType<typeof ownFunctions>;
  beforeAll(() => {
    const stack = new AutomotiveInferenceStack(testApp(), 'ManagedStack', {
      management: {
        jwtIssuer: 'https://issuer.example',
        jwtAudience: 'ais-mgmt',
        stripeSecretName: 'ais/stripe',
        localPayments: false,
        inferenceCallbackSecretName: 'ais/inference-callback',
        inferencePlaneUrl: 'https://plane.example/v1/jobs',
      },
    });
    functions = ownFunctions(Template.fromStack(stack).toJSON().Resources as Record<string, CfnResource>);
  });

  const env = (id: string) => (functions.get(id)?.props.Environment?.Variables ?? {}) as Record<string, unknown>;

  it('gives every JWT route and the JWKS route the issuer and audience, and API-key routes neither', () => {
    for (const route of ROUTES.filter((r) => r.auth === 'jwt')) expect(env(route.id), route.id).toMatchObject({ JWT_ISSUER: 'https://issuer.example', JWT_AUDIENCE: 'ais-mgmt' });
    expect(env('get-job')).not.toHaveProperty('JWT_ISSUER');
  });

  it('passes the Stripe keys to the billing functions as Secrets Manager references, never in clear', () => {
    const billing = ROUTES.filter((r) => ['create-checkout-session', 'create-portal-session', 'receive-billing-event'].includes(r.handler));
    expect(billing).toHaveLength(3);
    for (const route of billing) {
      const value = JSON.stringify(env(route.id).STRIPE_SECRET_KEY);
      expect(value, route.id).toContain('resolve:secretsmanager');
      expect(value).toContain('ais/stripe');
    }
    expect(env('get-organization')).not.toHaveProperty('STRIPE_SECRET_KEY');
  });

  it('passes the inference callback secret to the completion route and the workers as a Secrets Manager reference, never in clear', () => {
    for (const name of ['receive-completion', 'work-queue-consumer', 'sweeper']) {
      const value = JSON.stringify(env(name).INFERENCE_CALLBACK_SECRET);
      expect(value, name).toContain('resolve:secretsmanager');
      expect(value, name).toContain('ais/inference-callback');
    }
    expect(env('receive-billing-event')).not.toHaveProperty('INFERENCE_CALLBACK_SECRET');
    expect(env('get-job')).not.toHaveProperty('INFERENCE_CALLBACK_SECRET');
  });

  it('tells the workers where the inference plane is and which URL it calls back', () => {
    for (const name of ['work-queue-consumer', 'sweeper']) {
      expect(env(name).INFERENCE_PLANE_URL, name).toBe('https://plane.example/v1/jobs');
      expect(flatten(env(name).INFERENCE_CALLBACK_URL), name).toMatch(/^https:\/\/<\w+>\.execute-api\.<AWS::Region>\.<AWS::URLSuffix>\/prod\/internal\/v1\/completions$/);
    }
    expect(env('receive-completion')).not.toHaveProperty('INFERENCE_PLANE_URL');
    const withoutPlane = ownFunctions(Template.fromStack(new AutomotiveInferenceStack(testApp(), 'NoPlaneStack')).toJSON().Resources as Record<string, CfnResource>);
    expect(withoutPlane.get('work-queue-consumer')!.props.Environment.Variables).not.toHaveProperty('INFERENCE_PLANE_URL');
  });

  it('does not deploy the local payment provider pages unless asked', () => {
    for (const route of ROUTES.filter((r) => r.handler.startsWith('local-'))) expect(functions.has(route.id), route.id).toBe(false);
    const withLocal = ownFunctions(
      Template.fromStack(new AutomotiveInferenceStack(testApp(), 'LocalPaymentsStack', { management: { localPayments: true } })).toJSON().Resources as Record<string, CfnResource>,
    );
    for (const route of ROUTES.filter((r) => r.handler.startsWith('local-'))) expect(withLocal.has(route.id), route.id).toBe(true);
  });
});
