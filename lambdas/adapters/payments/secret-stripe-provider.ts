import type { Clock } from '../../domain/kernel/clock.js';
import type { BillingEvent, PaymentProvider } from '../../domain/ports/money.js';
import { secretJson } from '../runtime-secrets.js';
import { StripePaymentProvider } from './stripe-payment-provider.js';

/**
 * Stripe with its keys read from Secrets Manager at run time (JSON fields `secret_key` and
 * `webhook_secret`), cached for a bounded time: a rotated key is picked up without a redeploy.
 */
export class SecretStripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  private current: { secretKey: string; webhookSecret: string; provider: StripePaymentProvider } | undefined;

  constructor(
    private readonly secretArn: string,
    private readonly clock: Clock,
  ) {}

  private async provider(): Promise<StripePaymentProvider> {
    const keys = await secretJson(this.secretArn);
    const secretKey = String(keys.secret_key ?? '');
    const webhookSecret = String(keys.webhook_secret ?? '');
    if (!secretKey || !webhookSecret)
      throw new Error('the Stripe secret needs the fields secret_key and webhook_secret');
    if (this.current?.secretKey !== secretKey || this.current.webhookSecret !== webhookSecret) {
      this.current = {
        secretKey,
        webhookSecret,
        provider: new StripePaymentProvider({ secretKey, webhookSecret, clock: this.clock }),
      };
    }
    return this.current.provider;
  }

  async createCheckoutSession(request: Parameters<PaymentProvider['createCheckoutSession']>[0]) {
    return (await this.provider()).createCheckoutSession(request);
  }

  async createPortalSession(request: Parameters<PaymentProvider['createPortalSession']>[0]) {
    return (await this.provider()).createPortalSession(request);
  }

  async parseEvent(rawBody: Buffer, headers: Record<string, string>): Promise<BillingEvent> {
    return (await this.provider()).parseEvent(rawBody, headers);
  }
}
