import {
  DeletedMemberSchema,
  InvitedMemberSchema,
  InviteMemberSchema,
  MemberIdParams,
  MemberListSchema,
  MemberSchema,
  SignInOptionsSchema,
  UpdateMemberSchema,
} from '../../schemas/members.js';
import { defineRoute, managementRoute } from './define.js';

// every membership write is a small transaction: the member, its email, its pointer, the owner count
const WRITE = { table: 'readwrite' } as const;

export const listMembers = managementRoute({
  id: 'list-members',
  method: 'GET',
  path: '/mgmt/v1/members',
  minimumRole: 'member',
  summary: 'Every member of the organisation and their role, newest first',
  responses: { 200: { description: 'every member', schema: MemberListSchema } },
  errors: [],
  access: { table: 'read' },
  handler: 'members#listMembers',
});

export const inviteMember = managementRoute({
  id: 'invite-member',
  method: 'POST',
  path: '/mgmt/v1/members',
  minimumRole: 'admin',
  summary: 'Invite a person by email with a role; only an owner may invite an owner',
  body: InviteMemberSchema,
  responses: { 201: { description: 'the invited member (locally with a sign-in link)', schema: InvitedMemberSchema } },
  // service_unavailable (no identity provider of ours to invite with) comes with JWT auth
  errors: ['member_already_exists'],
  // a replay never shows the sign-in link again
  idempotency: 'without-secret',
  access: WRITE,
  settings: ['invitations'],
  handler: 'members#inviteMember',
});

export const updateMember = managementRoute({
  id: 'update-member',
  method: 'POST',
  path: '/mgmt/v1/members/{id}',
  minimumRole: 'admin',
  summary: 'Change a member’s role; only an owner may make or change an owner, and the last owner stays',
  params: MemberIdParams,
  notFound: 'member_not_found',
  body: UpdateMemberSchema,
  responses: { 200: { description: 'the member with its new role', schema: MemberSchema } },
  errors: ['member_not_found', 'last_owner'],
  access: WRITE,
  handler: 'members#updateMember',
});

export const deleteMember = managementRoute({
  id: 'delete-member',
  method: 'DELETE',
  path: '/mgmt/v1/members/{id}',
  minimumRole: 'admin',
  summary: 'Remove a member: their tokens stop working at once; only an owner may remove an owner, never the last',
  params: MemberIdParams,
  notFound: 'member_not_found',
  responses: { 200: { description: 'removed', schema: DeletedMemberSchema } },
  errors: ['member_not_found', 'last_owner'],
  access: WRITE,
  handler: 'members#deleteMember',
});

/** Public: what the dashboard shows on its sign-in page. */
export const getSignInOptions = defineRoute({
  id: 'get-sign-in-options',
  method: 'GET',
  path: '/mgmt/v1/sign-in',
  summary:
    'How to sign in to the dashboard (and sign up, where offered): the local runtime, the stack’s Cognito user pool, or another issuer',
  tag: 'Management',
  auth: 'none',
  responses: { 200: { description: 'the sign-in options', schema: SignInOptionsSchema } },
  errors: [],
  access: { table: 'none' },
  settings: ['identity_provider'],
  handler: 'sign-in#getSignInOptions',
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

export const MEMBER_ROUTES = [listMembers, inviteMember, updateMember, deleteMember, getSignInOptions] as const;
