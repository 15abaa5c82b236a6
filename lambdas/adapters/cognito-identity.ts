import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { memberIdOfSubject } from '../domain/access/members.js';
import type { IdentityProvider, SignInOptions } from '../domain/ports/access.js';
import { cognitoSdk, lazy, withoutCallLogging } from './aws-sdk.js';

export interface CognitoSettings {
  region: string;
  userPoolId: string;
  /** the app client the dashboard signs in with: the `aud` of its ID tokens */
  clientId: string;
  /** the hosted UI, `https://<prefix>.auth.<region>.amazoncognito.com` */
  domainUrl: string;
}

function subjectOf(
  attributes: ReadonlyArray<{ Name?: string | undefined; Value?: string | undefined }> | undefined,
): string {
  const sub = attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
  if (!sub) throw new Error('the user pool answered a user without its sub');
  return sub;
}

/**
 * The stack's Cognito user pool (`-c signup=cognito`): its hosted UI signs people in and up, and an
 * invitation creates the user (Cognito emails a temporary password). A member's id derives from
 * the user's `sub`, which is what their ID tokens carry.
 */
export class CognitoIdentityProvider implements IdentityProvider {
  private readonly client: () => Promise<CognitoIdentityProviderClient>;

  constructor(private readonly settings: CognitoSettings) {
    this.client = lazy(async () =>
      withoutCallLogging(new (cognitoSdk().CognitoIdentityProviderClient)({ region: settings.region })),
    );
  }

  signInOptions(): SignInOptions {
    // authorisation code with PKCE: the dashboard adds redirect_uri (<dashboard>/login), state and
    // the code challenge, and exchanges the code it gets back at the token endpoint
    const query = new URLSearchParams({
      client_id: this.settings.clientId,
      response_type: 'code',
      scope: 'openid email',
    });
    return {
      provider: 'cognito',
      sign_in_url: `${this.settings.domainUrl}/oauth2/authorize?${query}`,
      sign_up_url: `${this.settings.domainUrl}/signup?${query}`,
      token_url: `${this.settings.domainUrl}/oauth2/token`,
      client_id: this.settings.clientId,
    };
  }

  /** Someone who already has a user in the pool keeps it (and their password): they are only given the membership. */
  async invite(invitation: { email: string }): Promise<{ memberId: string; inviteUrl: null }> {
    const sdk = cognitoSdk();
    const client = await this.client();
    try {
      const created = await client.send(
        new sdk.AdminCreateUserCommand({
          UserPoolId: this.settings.userPoolId,
          Username: invitation.email,
          UserAttributes: [
            { Name: 'email', Value: invitation.email },
            { Name: 'email_verified', Value: 'true' },
          ],
          DesiredDeliveryMediums: ['EMAIL'],
        }),
      );
      return { memberId: memberIdOfSubject(subjectOf(created.User?.Attributes)), inviteUrl: null };
    } catch (error) {
      if (!(error instanceof sdk.UsernameExistsException)) throw error;
      const existing = await client.send(
        new sdk.AdminGetUserCommand({ UserPoolId: this.settings.userPoolId, Username: invitation.email }),
      );
      return { memberId: memberIdOfSubject(subjectOf(existing.UserAttributes)), inviteUrl: null };
    }
  }

  async signInLink(): Promise<null> {
    return null;
  }
}
