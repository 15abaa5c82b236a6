import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetched: string[] = [];
let stored: Record<string, unknown> = {};
vi.mock('@aws-sdk/client-secrets-manager', () => ({
  GetSecretValueCommand: class {
    constructor(readonly input: { SecretId: string }) {}
  },
  SecretsManagerClient: class {
    async send(command: { input: { SecretId: string } }) {
      fetched.push(command.input.SecretId);
      return { SecretString: stored[command.input.SecretId] };
    }
  },
}));

const { SECRET_MAX_AGE_SECONDS } = await import('../../../lambdas/adapters/runtime-secrets.js');
const { SecretStripePaymentProvider } = await import('../../../lambdas/adapters/payments/secret-stripe-provider.js');
const { refreshRuntimeSecrets, buildContainer } = await import('../../../lambdas/composition/container.js');
const { systemClock } = await import('../../../lambdas/domain/kernel/clock.js');

/** Past the cache's maximum age, so the next read must fetch again. */
const pastMaxAge = () => vi.advanceTimersByTime(SECRET_MAX_AGE_SECONDS * 1000 + 1);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});

afterEach(() => {
  vi.useRealTimers();
  fetched.length = 0;
  stored = {};
  delete process.env.INFERENCE_CALLBACK_SECRET_ARN;
});

describe('secrets are read at run time by ARN, with a bounded cache', () => {
  it('the callback secret is fetched before each invocation, cached at most five minutes', async () => {
    const arn = 'arn:aws:secretsmanager:eu-central-1:1:secret:ais/inference-callback';
    process.env.INFERENCE_CALLBACK_SECRET_ARN = arn;
    stored[arn] = 'icsec_first';
    const container = buildContainer({
      infrastructure: {
        region: 'eu-central-1',
        tableName: 't',
        bucketName: 'b',
        workQueueUrl: 'q',
        webhookQueueUrl: 'w',
      },
    });
    await refreshRuntimeSecrets(container);
    expect(container.config.inferenceCallbackSecret).toBe('icsec_first');
    stored[arn] = 'icsec_rotated';
    await refreshRuntimeSecrets(container);
    expect(container.config.inferenceCallbackSecret).toBe('icsec_first');
    expect(fetched).toEqual([arn]);
    pastMaxAge();
    await refreshRuntimeSecrets(container);
    expect(container.config.inferenceCallbackSecret).toBe('icsec_rotated');
    expect(fetched).toEqual([arn, arn]);
    expect(SECRET_MAX_AGE_SECONDS).toBeLessThanOrEqual(300);
    container.clients.dynamodb.destroy();
  });

  it('a failed read is not cached', async () => {
    const arn = 'arn:aws:secretsmanager:eu-central-1:1:secret:ais/late';
    process.env.INFERENCE_CALLBACK_SECRET_ARN = arn;
    const container = buildContainer({
      infrastructure: {
        region: 'eu-central-1',
        tableName: 't',
        bucketName: 'b',
        workQueueUrl: 'q',
        webhookQueueUrl: 'w',
      },
    });
    await expect(refreshRuntimeSecrets(container)).rejects.toThrow(/holds no string/);
    stored[arn] = 'icsec_now';
    await refreshRuntimeSecrets(container);
    expect(container.config.inferenceCallbackSecret).toBe('icsec_now');
    container.clients.dynamodb.destroy();
  });

  it('the Stripe provider verifies with the current webhook secret, and follows a rotation', async () => {
    const arn = 'arn:aws:secretsmanager:eu-central-1:1:secret:ais/stripe';
    stored[arn] = JSON.stringify({ secret_key: 'sk_test_1', webhook_secret: 'whsec_old' });
    const provider = new SecretStripePaymentProvider(arn, systemClock);
    const body = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'ping', data: { object: {} } }));
    const Stripe = (await import('stripe')).default;
    const sign = (secret: string) => ({
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body.toString(), secret }),
    });
    await expect(provider.parseEvent(body, sign('whsec_old'))).resolves.toBeDefined();
    stored[arn] = JSON.stringify({ secret_key: 'sk_test_1', webhook_secret: 'whsec_new' });
    pastMaxAge();
    await expect(provider.parseEvent(body, sign('whsec_old'))).rejects.toThrow();
    await expect(provider.parseEvent(body, sign('whsec_new'))).resolves.toBeDefined();
  });

  it('refuses a secret without the two Stripe fields', async () => {
    const arn = 'arn:aws:secretsmanager:eu-central-1:1:secret:ais/broken';
    stored[arn] = JSON.stringify({ secret_key: 'sk_test_1' });
    await expect(new SecretStripePaymentProvider(arn, systemClock).parseEvent(Buffer.from('{}'), {})).rejects.toThrow(
      /webhook_secret/,
    );
  });
});
