/** Dashboard roles, strongest first. */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** The caller behind a management-surface request: a verified dashboard token. */
export interface Member {
  userId: string;
  orgId: string;
  role: Role;
}
