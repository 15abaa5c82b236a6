import { SecretValue } from 'aws-cdk-lib';
import type { RouteDefinition } from '../lambdas/http/routes.js';

/** Deploy-time settings of the management surface, from CDK context (`-c jwtIssuer=…`). */
export interface ManagementSettings {
  /** any OIDC issuer, e.g. `https://cognito-idp.<region>.amazonaws.com/<user pool id>` */
  jwtIssuer?: string;
  jwtAudience?: string;
  /** default `<issuer>/.well-known/jwks.json` */
  jwksUrl?: string;
  /** Secrets Manager secret with JSON fields `secret_key` and `webhook_secret` */
  stripeSecretName?: string;
  dashboardUrl?: string;
  /** deploy the local payment provider's pages (LocalStack end-to-end runs only) */
  localPayments?: boolean;
  /** Secrets Manager secret (a plain string) shared with the inference plane: signs submissions and completion callbacks */
  inferenceCallbackSecretName?: string;
  /** where the workers submit live jobs; without it live jobs stay queued and expire */
  inferencePlaneUrl?: string;
}

const JWT_HANDLERS_EXTRA = new Set(['get-jwks']);
const BILLING_HANDLERS = new Set(['create-checkout-session', 'create-portal-session', 'receive-billing-event']);

/** The shared secret as a dynamic reference, resolved at deploy. */
function inferenceCallbackSecret(settings: ManagementSettings): Record<string, string> {
  return settings.inferenceCallbackSecretName ? { INFERENCE_CALLBACK_SECRET: SecretValue.secretsManager(settings.inferenceCallbackSecretName).unsafeUnwrap() } : {};
}

export function isDeployed(route: RouteDefinition, settings: ManagementSettings): boolean {
  return !route.handler.startsWith('local-') || settings.localPayments === true;
}

/**
 * The environment a management or billing function needs on top of the service's. The Stripe
 * keys travel as CloudFormation dynamic references, resolved at deploy: the template never
 * holds them in clear.
 */
export function managementEnvironment(route: RouteDefinition, settings: ManagementSettings): Record<string, string> {
  const env: Record<string, string> = {};
  if (route.auth === 'jwt' || JWT_HANDLERS_EXTRA.has(route.handler)) {
    if (settings.jwtIssuer) env.JWT_ISSUER = settings.jwtIssuer;
    if (settings.jwtAudience) env.JWT_AUDIENCE = settings.jwtAudience;
    if (settings.jwksUrl) env.JWKS_URL = settings.jwksUrl;
  }
  if (BILLING_HANDLERS.has(route.handler)) {
    if (settings.stripeSecretName) {
      env.STRIPE_SECRET_KEY = SecretValue.secretsManager(settings.stripeSecretName, { jsonField: 'secret_key' }).unsafeUnwrap();
      env.STRIPE_WEBHOOK_SECRET = SecretValue.secretsManager(settings.stripeSecretName, { jsonField: 'webhook_secret' }).unsafeUnwrap();
    }
    if (settings.dashboardUrl) env.DASHBOARD_URL = settings.dashboardUrl;
  }
  if (settings.localPayments && (BILLING_HANDLERS.has(route.handler) || route.handler.startsWith('local-'))) env.PAYMENT_PROVIDER = 'local';
  if (route.handler === 'receive-completion') Object.assign(env, inferenceCallbackSecret(settings));
  return env;
}

/**
 * The workers' view of the inference plane (they submit live jobs): its URL, the callback URL
 * they pass with each job and the shared secret. Nothing without `inferencePlaneUrl`.
 */
export function inferencePlaneEnvironment(settings: ManagementSettings, callbackUrl: string): Record<string, string> {
  if (!settings.inferencePlaneUrl) return {};
  return { INFERENCE_PLANE_URL: settings.inferencePlaneUrl, INFERENCE_CALLBACK_URL: callbackUrl, ...inferenceCallbackSecret(settings) };
}
