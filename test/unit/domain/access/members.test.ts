import { describe, expect, it } from 'vitest';
import type { ROLES } from '../../../../lambdas/domain/access/member.js';
import { hasRole } from '../../../../lambdas/domain/access/members.js';

describe('roles', () => {
  it('orders owner > admin > member', () => {
    const member = (role: (typeof ROLES)[number]) => ({ userId: 'usr_1', orgId: 'org_1', role });
    expect(hasRole(member('owner'), 'admin')).toBe(true);
    expect(hasRole(member('admin'), 'admin')).toBe(true);
    expect(hasRole(member('admin'), 'owner')).toBe(false);
    expect(hasRole(member('member'), 'admin')).toBe(false);
    expect(hasRole(member('member'), 'member')).toBe(true);
  });
});
