import { LocalPaymentProvider } from '../adapters/payments/local-payment-provider.js';
import { SecretStripePaymentProvider } from '../adapters/payments/secret-stripe-provider.js';
import { StripePaymentProvider } from '../adapters/payments/stripe-payment-provider.js';
import type { Clock } from '../domain/kernel/clock.js';
import type { PaymentProvider } from '../domain/ports/money.js';
import type { Container } from './container.js';

/**
 * The payment provider on AWS: Stripe when STRIPE_SECRET_ARN names its Secrets Manager secret
 * (read at run time, never in the environment), or when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set (tests);
 * the local provider only when asked for explicitly (PAYMENT_PROVIDER=local with
 * LOCAL_WEBHOOK_SECRET and PUBLIC_BASE_URL, for LocalStack end-to-end runs); otherwise none,
 * and billing answers 503. Kept out of container.ts so only billing bundles carry the Stripe REST client.
 */
export function paymentProviderFromEnvironment(clock: Clock): PaymentProvider | undefined {
  const {
    STRIPE_SECRET_ARN,
    STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET,
    PAYMENT_PROVIDER,
    LOCAL_WEBHOOK_SECRET,
    PUBLIC_BASE_URL,
  } = process.env;
  if (STRIPE_SECRET_ARN) return new SecretStripePaymentProvider(STRIPE_SECRET_ARN, clock);
  if (STRIPE_SECRET_KEY && STRIPE_WEBHOOK_SECRET)
    return new StripePaymentProvider({ secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET, clock });
  if (PAYMENT_PROVIDER === 'local' && LOCAL_WEBHOOK_SECRET && PUBLIC_BASE_URL)
    return new LocalPaymentProvider({ baseUrl: PUBLIC_BASE_URL, webhookSecret: LOCAL_WEBHOOK_SECRET, clock });
  return undefined;
}

/** The container of a route with the `payments` setting: the provider configured in the environment. */
export function withPaymentProvider(container: Container): Container {
  return { ...container, payments: paymentProviderFromEnvironment(container.clock) ?? container.payments };
}
