import type { MemberRecord, Role } from '../lambdas/domain/access/member.js';
import { randomId } from '../lambdas/domain/kernel/ids.js';
import type { IdentityProvider, SignInOptions } from '../lambdas/domain/ports/access.js';
import { AUTHORIZE_PATH, TOKEN_PATH } from './local-authorization.js';

/** Signs a 15-minute dashboard token for a member (the local issuer). */
type SignToken = (member: { orgId: string; userId: string; role: Role }) => Promise<string>;

/**
 * The local runtime signs people in itself: an invitation or a sign-up answers a sign-in link,
 * `/dashboard/login#token=<jwt>` (the token travels in the fragment, never in a query), and the
 * invited person's member id is a fresh `usr_` id their tokens carry as `sub`.
 */
export class LocalIdentityProvider implements IdentityProvider {
  constructor(private readonly options: { baseUrl: string; clientId: string; sign: SignToken }) {}

  /** The local issuer's authorisation code flow (local/local-authorization.ts), as Cognito's on AWS. */
  signInOptions(): SignInOptions {
    const query = new URLSearchParams({ client_id: this.options.clientId, response_type: 'code', scope: 'openid' });
    return {
      provider: 'local',
      sign_in_url: `${this.options.baseUrl}${AUTHORIZE_PATH}?${query}`,
      sign_up_url: `${this.options.baseUrl}/dashboard/signup`,
      token_url: `${this.options.baseUrl}${TOKEN_PATH}`,
      client_id: this.options.clientId,
    };
  }

  async invite(invitation: { orgId: string; role: Role }): Promise<{ memberId: string; inviteUrl: string }> {
    const memberId = randomId('usr');
    return { memberId, inviteUrl: await this.link(invitation.orgId, memberId, invitation.role) };
  }

  async signInLink(member: MemberRecord): Promise<string> {
    return this.link(member.org_id, member.id, member.role);
  }

  private async link(orgId: string, userId: string, role: Role): Promise<string> {
    return `${this.options.baseUrl}/dashboard/login#token=${await this.options.sign({ orgId, userId, role })}`;
  }
}
