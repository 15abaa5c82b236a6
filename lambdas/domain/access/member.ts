/** Dashboard roles, strongest first. */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** The caller behind a management-surface request: a verified dashboard token, with the role its membership has now. */
export interface Member {
  /** the member id (`usr_…`) */
  userId: string;
  orgId: string;
  role: Role;
}

/** `invited` until the person's first signed-in request (or Cognito sign-in), then `active`. */
export type MemberStatus = 'invited' | 'active';

/** A person's membership of one organisation: the role in effect on every management request. */
export interface MemberRecord {
  id: string;
  org_id: string;
  /** null only for an owner an organisation was created with when no email was given (`npm run admin -- create-organization` without `--owner-email`) */
  email: string | null;
  role: Role;
  status: MemberStatus;
  created: number;
}
