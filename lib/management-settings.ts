import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
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
  /** the dashboard's root, e.g. `https://<distribution>/dashboard`: billing sends users back to `<dashboardUrl>/billing` */
  dashboardUrl?: string;
  /** deploy the local payment provider's pages (LocalStack end-to-end runs only) */
  localPayments?: boolean;
  /** Secrets Manager secret (a plain string) shared with the inference plane: signs submissions and completion callbacks */
  inferenceCallbackSecretName?: string;
  /** where the workers submit live jobs; without it live jobs stay queued and expire */
  inferencePlaneUrl?: string;
  /** deploy the reference inference plane (lib/reference-plane.ts) and submit live jobs to it */
  referencePlane?: boolean;
  /** deploy the fixture plane instead (every endpoint answered by fixtures, `-fixture` in `model_version`): wiring tests only */
  fixturePlane?: boolean;
  /** comma-separated slugs the plane at `inferencePlaneUrl` computes; without it, every endpoint */
  inferencePlaneModels?: string;
  /** `cognito`: the stack's own user pool signs people up and in (lib/signup.ts), and issues the dashboard's tokens */
  signup?: 'cognito';
  /** the hosted UI's domain prefix, unique in the region (default `ais-<the stack id's UUID>`) */
  signupDomainPrefix?: string;
}

/** The stack's Cognito user pool as the route functions see it (set by the stack with `signup: 'cognito'`). */
export interface UserPoolSettings {
  userPoolId: string;
  userPoolArn: string;
  clientId: string;
  /** the hosted UI */
  domainUrl: string;
}

/** The secrets the functions read at run time, by ARN: nothing secret ever sits in an environment. */
export interface RuntimeSecrets {
  stripe?: ISecret;
  inferenceCallback?: ISecret;
}

export function importRuntimeSecrets(scope: Construct, settings: ManagementSettings): RuntimeSecrets {
  return {
    ...(settings.stripeSecretName
      ? { stripe: Secret.fromSecretNameV2(scope, 'StripeSecret', settings.stripeSecretName) }
      : {}),
    ...(settings.inferenceCallbackSecretName
      ? {
          inferenceCallback: Secret.fromSecretNameV2(
            scope,
            'InferenceCallbackSecret',
            settings.inferenceCallbackSecretName,
          ),
        }
      : {}),
  };
}

export function isDeployed(route: RouteDefinition, settings: ManagementSettings): boolean {
  return !route.localOnly || settings.localPayments === true;
}

/**
 * The environment a route's function needs on top of the service's, from the settings its
 * definition names (JWT routes need the issuer whatever they name). Secrets travel as ARNs only;
 * the function fetches the value at run time (lambdas/adapters/runtime-secrets.ts).
 */
export function managementEnvironment(
  route: RouteDefinition,
  settings: ManagementSettings,
  secrets: RuntimeSecrets = {},
  userPool?: UserPoolSettings,
): Record<string, string> {
  const needs = new Set(route.settings ?? []);
  if (route.auth === 'jwt') needs.add('jwt_issuer');
  // which identity provider there is: the stack's user pool, or (JWT_ISSUER alone) another issuer
  if (needs.has('identity_provider') || needs.has('invitations')) needs.add('jwt_issuer');
  const env: Record<string, string> = {};
  if ((needs.has('identity_provider') || needs.has('invitations')) && userPool) {
    env.COGNITO_USER_POOL_ID = userPool.userPoolId;
    env.COGNITO_CLIENT_ID = userPool.clientId;
    env.COGNITO_DOMAIN_URL = userPool.domainUrl;
  }
  if (needs.has('jwt_issuer')) {
    if (settings.jwtIssuer) env.JWT_ISSUER = settings.jwtIssuer;
    if (settings.jwtAudience) env.JWT_AUDIENCE = settings.jwtAudience;
    if (settings.jwksUrl) env.JWKS_URL = settings.jwksUrl;
  }
  if (needs.has('payments')) {
    if (secrets.stripe) env.STRIPE_SECRET_ARN = secrets.stripe.secretArn;
    if (settings.dashboardUrl) env.DASHBOARD_URL = settings.dashboardUrl;
    if (settings.localPayments) env.PAYMENT_PROVIDER = 'local';
  }
  if (needs.has('inference_callback_secret') && secrets.inferenceCallback)
    env.INFERENCE_CALLBACK_SECRET_ARN = secrets.inferenceCallback.secretArn;
  return env;
}

/** An invitation creates the person's user in the pool (or finds the one they have): those two calls on that pool only. */
export function grantRouteIdentity(
  fn: IFunction,
  route: RouteDefinition,
  userPool: UserPoolSettings | undefined,
): void {
  if (!route.settings?.includes('invitations') || !userPool) return;
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminGetUser'],
      resources: [userPool.userPoolArn],
    }),
  );
}

/** Read rights for the secrets a route's settings name. */
export function grantRouteSecrets(fn: IFunction, route: RouteDefinition, secrets: RuntimeSecrets): void {
  if (route.settings?.includes('payments') && secrets.stripe) secrets.stripe.grantRead(fn);
  if (route.settings?.includes('inference_callback_secret') && secrets.inferenceCallback)
    secrets.inferenceCallback.grantRead(fn);
}

/**
 * The workers' view of the inference plane (they submit live jobs): its URL, the callback URL
 * they pass with each job and the ARN of the shared secret. Nothing without `inferencePlaneUrl`.
 */
export function inferencePlaneEnvironment(
  settings: ManagementSettings,
  callbackUrl: string,
  secrets: RuntimeSecrets = {},
): Record<string, string> {
  if (!settings.inferencePlaneUrl) return {};
  return {
    INFERENCE_PLANE_URL: settings.inferencePlaneUrl,
    INFERENCE_CALLBACK_URL: callbackUrl,
    ...(secrets.inferenceCallback ? { INFERENCE_CALLBACK_SECRET_ARN: secrets.inferenceCallback.secretArn } : {}),
  };
}
