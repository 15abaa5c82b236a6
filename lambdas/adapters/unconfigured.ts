import type { Member } from '../domain/access/member.js';
import { ApiError } from '../domain/kernel/errors.js';
import type { IdentityProvider, PublishedKeySet, SignInOptions, TokenVerifier } from '../domain/ports/access.js';
import type { ExecutionState, InspectionOrchestrator } from '../domain/ports/inspections.js';
import type { InferencePlane } from '../domain/ports/jobs.js';
import type { BillingEvent, PaymentProvider, ProviderSession } from '../domain/ports/money.js';

/**
 * The container's defaults until a management composition root (lambdas/composition/token-verifier.ts,
 * identity-provider.ts, payment-provider.ts) or the local runtime configures the real adapters. Kept free of jose and the
 * Stripe client, so `/v1` and worker bundles carry neither.
 */
export class UnconfiguredTokenVerifier implements TokenVerifier {
  async verify(): Promise<Member> {
    throw new ApiError(
      'service_unavailable',
      null,
      'Dashboard authentication is not configured (JWT_ISSUER, JWT_AUDIENCE).',
    );
  }
  async publishedKeys(): Promise<PublishedKeySet> {
    return { keys: [] };
  }
}

/** Billing answers 503 rather than granting anything. */
export class UnconfiguredPaymentProvider implements PaymentProvider {
  readonly name = 'none';
  private refuse(): never {
    throw new ApiError(
      'service_unavailable',
      null,
      'Billing is not configured (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET).',
    );
  }
  async createCheckoutSession(): Promise<ProviderSession> {
    return this.refuse();
  }
  async createPortalSession(): Promise<ProviderSession & { customerId: string }> {
    return this.refuse();
  }
  async parseEvent(): Promise<BillingEvent> {
    return this.refuse();
  }
}

/**
 * No identity provider of ours: tokens come from another OIDC issuer (`external`), or from nobody.
 * Invitations answer 503: the issuer's subjects cannot be known before those people sign in.
 */
export class UnconfiguredIdentityProvider implements IdentityProvider {
  constructor(private readonly provider: 'external' | 'none' = 'none') {}
  signInOptions(): SignInOptions {
    return { provider: this.provider, sign_in_url: null, sign_up_url: null, token_url: null, client_id: null };
  }
  async invite(): Promise<never> {
    throw new ApiError(
      'service_unavailable',
      null,
      'Invitations need the stack’s own user pool (deploy with -c signup=cognito) or the local runtime.',
    );
  }
  async signInLink(): Promise<null> {
    return null;
  }
}

/** Used until a live inference plane is configured: live jobs stay queued and expire, releasing their credits. */
export class UnconfiguredInferencePlane implements InferencePlane {
  async submit(): Promise<boolean> {
    return false;
  }
  async cancel(): Promise<void> {}
}

/** Without a state machine (a function that never runs inspections): starting one is a fault, callbacks go nowhere. */
export class UnconfiguredOrchestrator implements InspectionOrchestrator {
  async start(): Promise<string> {
    throw new Error('no inspection state machine is configured (STATE_MACHINE_ARN)');
  }
  async describe(): Promise<ExecutionState> {
    return 'unknown';
  }
  async stopExecution(): Promise<void> {}
  async sendTaskSuccess(): Promise<boolean> {
    return false;
  }
  async sendTaskFailure(): Promise<boolean> {
    return false;
  }
}
