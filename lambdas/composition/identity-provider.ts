import { CognitoIdentityProvider } from '../adapters/cognito-identity.js';
import { UnconfiguredIdentityProvider } from '../adapters/unconfigured.js';
import type { IdentityProvider } from '../domain/ports/access.js';
import type { Container } from './container.js';

/**
 * The identity provider on AWS: the stack's Cognito user pool when COGNITO_USER_POOL_ID,
 * COGNITO_CLIENT_ID and COGNITO_DOMAIN_URL name it (`-c signup=cognito`); otherwise another OIDC
 * issuer (JWT_ISSUER) or none, and invitations answer 503. Kept out of container.ts so only the
 * member and sign-in bundles carry the Cognito adapter.
 */
function identityProviderFromEnvironment(region: string): IdentityProvider {
  const { COGNITO_USER_POOL_ID, COGNITO_CLIENT_ID, COGNITO_DOMAIN_URL, JWT_ISSUER } = process.env;
  if (COGNITO_USER_POOL_ID && COGNITO_CLIENT_ID && COGNITO_DOMAIN_URL)
    return new CognitoIdentityProvider({
      region,
      userPoolId: COGNITO_USER_POOL_ID,
      clientId: COGNITO_CLIENT_ID,
      domainUrl: COGNITO_DOMAIN_URL,
    });
  return new UnconfiguredIdentityProvider(JWT_ISSUER ? 'external' : 'none');
}

/** The container of a route with the `identity_provider` or `invitations` setting. */
export function withIdentityProvider(container: Container): Container {
  return { ...container, identity: identityProviderFromEnvironment(container.infrastructure.region) };
}
