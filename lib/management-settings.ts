import { SecretValue } from 'aws-cdk-lib';
import type { RouteDefinition } from '../lambdas/http/routes/define.js';

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

/** The shared secret as a dynamic reference, resolved at deploy. */
function inferenceCallbackSecret(settings: ManagementSettings): Record<string, string> {
  return settings.inferenceCallbackSecretName ? { INFERENCE_CALLBACK_SECRET: SecretValue.secretsManager(settings.inferenceCallbackSecretName).unsafeUnwrap() } : {};
}

export function isDeployed(route: RouteDefinition, settings: ManagementSettings): boolean {
  return !route.localOnly || settings.localPayments === true;
}

/**
 * The environment a route's function needs on top of the service's, from the settings its
 * definition names (JWT routes need the issuer whatever they name). The Stripe keys travel as
 * CloudFormation dynamic references, resolved at deploy: the template never holds them in clear.
 */
export function managementEnvironment(route: RouteDefinition, settings: ManagementSettings): Record<string, string> {
  const needs = new Set(route.settings ?? []);
  if (route.auth === 'jwt') needs.add('jwt_issuer');
  const env: Record<string, string> = {};
  if (needs.has('jwt_issuer')) {
    if (settings.jwtIssuer) env.JWT_ISSUER = settings.jwtIssuer;
    if (settings.jwtAudience) env.JWT_AUDIENCE = settings.jwtAudience;
    if (settings.jwksUrl) env.JWKS_URL = settings.jwksUrl;
  }
  if (needs.has('payments')) {
    if (settings.stripeSecretName) {
      env.STRIPE_SECRET_KEY = SecretValue.secretsManager(settings.stripeSecretName, { jsonField: 'secret_key' }).unsafeUnwrap();
      env.STRIPE_WEBHOOK_SECRET = SecretValue.secretsManager(settings.stripeSecretName, { jsonField: 'webhook_secret' }).unsafeUnwrap();
    }
    if (settings.dashboardUrl) env.DASHBOARD_URL = settings.dashboardUrl;
    if (settings.localPayments) env.PAYMENT_PROVIDER = 'local';
  }
  if (needs.has('inference_callback_secret')) Object.assign(env, inferenceCallbackSecret(settings));
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
