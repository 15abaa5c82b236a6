import type { MemberRecord, Role } from '../access/member.js';

/** Why a membership write was refused. */
export type MembershipRefusal =
  /** the email is already a member of this organisation */
  | 'email_taken'
  /** the person (their member id) already belongs to an organisation */
  | 'user_taken'
  /** the change would leave the organisation without an owner */
  | 'last_owner'
  /** the member's role or existence changed since it was read (the caller reads again) */
  | 'changed';

/**
 * Memberships. Each organisation keeps a count of its owners, moved in the same transaction as
 * every role change and removal, so two concurrent demotions can never leave it without one.
 */
export interface MemberStore {
  /** strongly consistent: a removal or demotion holds on the very next request */
  get(orgId: string, memberId: string): Promise<MemberRecord | null>;
  /** the organisation of a member id, whichever it is (a person belongs to one organisation) */
  organizationOf(memberId: string): Promise<string | null>;
  /** every member of the organisation */
  list(orgId: string): Promise<MemberRecord[]>;
  add(member: MemberRecord): Promise<MemberRecord | MembershipRefusal>;
  /** conditioned on the role `member` was read with */
  changeRole(member: MemberRecord, role: Role): Promise<MemberRecord | MembershipRefusal>;
  /** conditioned on the role `member` was read with */
  remove(member: MemberRecord): Promise<true | MembershipRefusal>;
  /** `invited` → `active`; a no-op when already active or gone */
  activate(member: MemberRecord): Promise<void>;
}

/** How people sign in to the dashboard, as `GET /mgmt/v1/sign-in` presents it. */
export interface SignInOptions {
  /** `local`: the local runtime signs people in itself; `cognito`: the stack's user pool; `external`: another OIDC issuer; `none`: not configured */
  provider: 'local' | 'cognito' | 'external' | 'none';
  /** where to sign in (Cognito: the hosted UI, the dashboard adds its own `redirect_uri`) */
  sign_in_url: string | null;
  /** where to sign up, where sign-up is offered */
  sign_up_url: string | null;
}

/**
 * The identity provider the dashboard signs in with: the local runtime's own issuer, or the
 * stack's Cognito user pool. It decides the member id an invited person's tokens will carry.
 */
export interface IdentityProvider {
  signInOptions(): SignInOptions;
  /**
   * Registers an invited person: the member id their tokens will name and, where the service signs
   * people in itself (locally), a sign-in link; Cognito emails its own invitation instead.
   */
  invite(invitation: { orgId: string; email: string; role: Role }): Promise<{ memberId: string; inviteUrl: string | null }>;
  /** a sign-in link for a member where the service signs people in itself (local sign-up); null elsewhere */
  signInLink(member: MemberRecord): Promise<string | null>;
}
