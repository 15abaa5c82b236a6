import { beforeAll, describe, expect, it } from 'vitest';
import { functionName } from '../../lambdas/http/routes/define.js';
import { ROUTES } from '../../lambdas/http/routes/index.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import {
  actionsOf,
  assemblyResources,
  type CfnResource,
  flatten,
  ownFunctions,
  statementsOf,
  testApp,
} from './template.js';

describe('management surface wiring', () => {
  let functions: ReturnType<typeof ownFunctions>;
  let resources: Record<string, CfnResource>;
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
    resources = assemblyResources(stack);
    functions = ownFunctions(resources);
  });

  const env = (id: string) => (functions.get(id)?.props.Environment?.Variables ?? {}) as Record<string, unknown>;
  const secretReads = (id: string) =>
    statementsOf(resources, functions.get(id)!.logicalId)
      .filter((s) => actionsOf([s]).includes('secretsmanager:GetSecretValue'))
      .flatMap((s) => [s.Resource].flat().map(flatten));

  it('gives every JWT route and the JWKS route the issuer and audience, and API-key routes neither', () => {
    for (const route of ROUTES.filter((r) => r.auth === 'jwt'))
      expect(env(route.id), route.id).toMatchObject({ JWT_ISSUER: 'https://issuer.example', JWT_AUDIENCE: 'ais-mgmt' });
    expect(env('get-job')).not.toHaveProperty('JWT_ISSUER');
  });

  it('gives the billing functions the ARN of the Stripe secret, never its value or a dynamic reference, and GetSecretValue on that secret alone', () => {
    const billing = ROUTES.filter((r) =>
      ['create-checkout-session', 'create-portal-session', 'receive-billing-event'].includes(functionName(r)),
    );
    expect(billing).toHaveLength(3);
    for (const route of billing) {
      expect(flatten(env(route.id).STRIPE_SECRET_ARN), route.id).toBe(
        'arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:ais/stripe',
      );
      expect(secretReads(route.id)).toEqual([
        'arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:ais/stripe-??????',
      ]);
    }
    expect(env('get-organization')).not.toHaveProperty('STRIPE_SECRET_ARN');
    expect(secretReads('get-organization')).toEqual([]);
  });

  it('gives the completion route and the workers the ARN of the callback secret and read rights on it alone', () => {
    for (const name of ['receive-completion', 'work-queue-consumer', 'sweeper']) {
      expect(flatten(env(name).INFERENCE_CALLBACK_SECRET_ARN), name).toBe(
        'arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:ais/inference-callback',
      );
      expect(secretReads(name), name).toEqual([
        'arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:ais/inference-callback-??????',
      ]);
    }
    expect(env('receive-billing-event')).not.toHaveProperty('INFERENCE_CALLBACK_SECRET_ARN');
    expect(env('get-job')).not.toHaveProperty('INFERENCE_CALLBACK_SECRET_ARN');
  });

  it('puts no secret value and no dynamic reference into any Lambda environment', () => {
    for (const [name, fn] of functions) {
      const variables = JSON.stringify(fn.props.Environment?.Variables ?? {});
      expect(variables, name).not.toContain('resolve:secretsmanager');
      expect(Object.keys(fn.props.Environment?.Variables ?? {}), name).not.toEqual(
        expect.arrayContaining(['STRIPE_SECRET_KEY']),
      );
      expect(Object.keys(fn.props.Environment?.Variables ?? {}), name).not.toEqual(
        expect.arrayContaining(['INFERENCE_CALLBACK_SECRET']),
      );
    }
  });

  it('tells the workers where the inference plane is and which URL it calls back', () => {
    for (const name of ['work-queue-consumer', 'sweeper']) {
      expect(env(name).INFERENCE_PLANE_URL, name).toBe('https://plane.example/v1/jobs');
      expect(flatten(env(name).INFERENCE_CALLBACK_URL), name).toMatch(
        /^https:\/\/<\w+>\.execute-api\.<AWS::Region>\.<AWS::URLSuffix>\/prod\/internal\/v1\/completions$/,
      );
    }
    expect(env('receive-completion')).not.toHaveProperty('INFERENCE_PLANE_URL');
    const withoutPlane = ownFunctions(assemblyResources(new AutomotiveInferenceStack(testApp(), 'NoPlaneStack')));
    expect(withoutPlane.get('work-queue-consumer')!.props.Environment.Variables).not.toHaveProperty(
      'INFERENCE_PLANE_URL',
    );
  });

  it('does not deploy the local payment provider pages unless asked', () => {
    for (const route of ROUTES.filter((r) => functionName(r).startsWith('local-')))
      expect(functions.has(route.id), route.id).toBe(false);
    const withLocal = ownFunctions(
      assemblyResources(
        new AutomotiveInferenceStack(testApp(), 'LocalPaymentsStack', { management: { localPayments: true } }),
      ),
    );
    for (const route of ROUTES.filter((r) => functionName(r).startsWith('local-')))
      expect(withLocal.has(route.id), route.id).toBe(true);
  });
});
