import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../lambdas/http/routes.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import { ownFunctions, testApp, type CfnResource } from './template.js';

describe('management surface wiring', () => {
  let functions: ReturnType<typeof ownFunctions>;
  beforeAll(() => {
    const stack = new AutomotiveInferenceStack(testApp(), 'ManagedStack', {
      management: { jwtIssuer: 'https://issuer.example', jwtAudience: 'ais-mgmt', stripeSecretName: 'ais/stripe', localPayments: false },
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

  it('does not deploy the local payment provider pages unless asked', () => {
    for (const route of ROUTES.filter((r) => r.handler.startsWith('local-'))) expect(functions.has(route.id), route.id).toBe(false);
    const withLocal = ownFunctions(Template.fromStack(new AutomotiveInferenceStack(testApp(), 'LocalPaymentsStack', { management: { localPayments: true } })).toJSON().Resources as Record<string, CfnResource>);
    for (const route of ROUTES.filter((r) => r.handler.startsWith('local-'))) expect(withLocal.has(route.id), route.id).toBe(true);
  });
});
