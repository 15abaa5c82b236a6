import * as z from 'zod/mini';
import { ROLES } from '../domain/access/member.js';
import { ID_BODY_PATTERN } from '../domain/kernel/ids.js';
import { OrganizationSchema } from './management.js';
import { listOf, Timestamp } from './records.js';
import { describe, meta } from './zod.js';

const MemberId = describe(z.string().check(z.regex(new RegExp(`^usr_${ID_BODY_PATTERN}$`))), 'member id');
const RoleSchema = meta(z.enum(ROLES), {
  id: 'Role',
  description: 'owner > admin > member; the role in effect on every management request',
});
const Email = z.email().check(z.maxLength(254));

export const MemberSchema = meta(
  z.strictObject({
    id: MemberId,
    object: z.literal('member'),
    email: describe(z.nullable(z.string()), 'null only for an owner an organisation was created with without one'),
    role: RoleSchema,
    status: describe(z.enum(['invited', 'active']), 'invited until the person’s first signed-in request'),
    created: Timestamp,
  }),
  { id: 'Member' },
);

export const InvitedMemberSchema = meta(
  z.extend(MemberSchema, {
    invite_url: describe(
      z.optional(z.string()),
      'local runtime only: a sign-in link for the invited person (a 15-minute token in its fragment), shown once; on AWS the user pool emails the invitation',
    ),
  }),
  { id: 'InvitedMember' },
);

export const MemberListSchema = listOf(MemberSchema, 'MemberList');

export const MemberIdParams = z.object({ id: MemberId });

export const InviteMemberSchema = meta(
  z.strictObject({
    email: describe(Email, 'compared case-insensitively'),
    role: describe(RoleSchema, 'only an owner may invite an owner'),
  }),
  { id: 'InviteMember' },
);

export const UpdateMemberSchema = meta(
  z.strictObject({ role: describe(RoleSchema, 'only an owner may make an owner or change an owner’s role') }),
  {
    id: 'UpdateMember',
  },
);

export const DeletedMemberSchema = meta(
  z.strictObject({ id: MemberId, object: z.literal('member'), deleted: z.literal(true) }),
  { id: 'DeletedMember' },
);

export const SignInOptionsSchema = meta(
  z.strictObject({
    object: z.literal('sign_in_options'),
    provider: describe(z.enum(['local', 'cognito', 'external', 'none']), 'who signs people in to the dashboard'),
    sign_in_url: describe(
      z.nullable(z.string()),
      'where to sign in: the authorisation endpoint (Cognito’s hosted UI, or the local issuer’s) with client_id, response_type=code and scope; the dashboard adds redirect_uri, state and a PKCE code_challenge (S256)',
    ),
    sign_up_url: describe(z.nullable(z.string()), 'where to sign up, where sign-up is offered'),
    token_url: describe(
      z.nullable(z.string()),
      'where the dashboard exchanges the authorisation code and its PKCE code_verifier for tokens',
    ),
    client_id: describe(z.nullable(z.string()), 'the dashboard’s OAuth client (public: it has no secret)'),
  }),
  { id: 'SignInOptions' },
);

export const LocalSignUpSchema = meta(
  z.strictObject({
    organization_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    email: describe(Email, 'the owner’s email'),
  }),
  { id: 'LocalSignUp' },
);

export const LocalSignUpAnswerSchema = meta(
  z.strictObject({
    object: z.literal('sign_up'),
    organization: OrganizationSchema,
    member: MemberSchema,
    login_url: describe(z.string(), 'the owner’s sign-in link (a 15-minute token in its fragment)'),
  }),
  { id: 'LocalSignUpAnswer' },
);
