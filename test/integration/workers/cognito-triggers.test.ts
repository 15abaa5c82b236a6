import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PostConfirmationTriggerEvent, PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withIdentityProvider } from '../../../lambdas/composition/identity-provider.js';
import type { Member } from '../../../lambdas/domain/access/member.js';
import { memberIdOfSubject } from '../../../lambdas/domain/access/members.js';
import { inviteMember } from '../../../lambdas/domain/access/memberships.js';
import { ApiError } from '../../../lambdas/domain/kernel/errors.js';
import { handleCognitoTrigger } from '../../../lambdas/workers/cognito-triggers.js';
import { withAws } from '../../support/aws-environment.js';
import { type CognitoDouble, startCognitoDouble } from '../../support/cognito-double.js';
import { call, expectEnvelope } from '../../support/http.js';
import { sharedTestService, type TestService } from '../../support/service.js';

/** What `-c signup=cognito` does, with Cognito's own event shapes and a user pool double for the admin calls. */
let cognito: CognitoDouble;
let emptyDir: string;

const svc = sharedTestService();
beforeAll(async () => {
  cognito = await startCognitoDouble(USER_POOL);
  emptyDir = mkdtempSync(join(tmpdir(), 'ais-cognito-'));
});
afterAll(async () => {
  await cognito.stop();
  rmSync(emptyDir, { recursive: true, force: true });
});

const USER_POOL = 'eu-central-1_AbCdEfGhI';
const CLIENT = '4tq3kq7vq2vhv4n0rrs3j4fmh1';

/** A new Cognito user: the UUID Cognito gives as `sub` (and, with email sign-in, as the user name). */
function newUser(): { sub: string; email: string } {
  const sub = randomUUID();
  return { sub, email: `founder-${sub.slice(0, 8)}@garage.example` };
}

/** What every trigger event of the pool carries (docs: "Lambda triggers", shared parameters). */
function common<S extends string>(user: { sub: string }, triggerSource: S) {
  return {
    version: '1',
    region: 'eu-central-1',
    userPoolId: USER_POOL,
    userName: user.sub,
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: CLIENT },
    triggerSource,
  };
}

/** The event Cognito sends once a sign-up is confirmed (docs: "Post confirmation Lambda trigger"). */
function postConfirmation(
  user: { sub: string; email: string },
  attributes: Record<string, string> = {},
  source: PostConfirmationTriggerEvent['triggerSource'] = 'PostConfirmation_ConfirmSignUp',
): PostConfirmationTriggerEvent {
  return {
    ...common(user, source),
    request: {
      userAttributes: {
        sub: user.sub,
        'cognito:email_alias': user.email,
        'cognito:user_status': 'CONFIRMED',
        email_verified: 'true',
        email: user.email,
        ...attributes,
      },
    },
    response: {},
  } as PostConfirmationTriggerEvent;
}

/** The V1 event Cognito sends before it issues tokens (docs: "Pre token generation Lambda trigger"): no override yet. */
function preTokenGeneration(
  user: { sub: string; email: string },
  source: PreTokenGenerationTriggerEvent['triggerSource'] = 'TokenGeneration_HostedAuth',
): PreTokenGenerationTriggerEvent {
  return {
    ...common(user, source),
    request: {
      userAttributes: { sub: user.sub, 'cognito:user_status': 'CONFIRMED', email_verified: 'true', email: user.email },
      groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [], preferredRole: undefined },
    },
    // Cognito sends null here
    response: {
      claimsOverrideDetails: null as unknown as PreTokenGenerationTriggerEvent['response']['claimsOverrideDetails'],
    },
  };
}

async function organizationsOwnedBy(sub: string): Promise<string[]> {
  const memberId = memberIdOfSubject(sub);
  const all = await svc.services.accounts.listOrganizations();
  const owned = await Promise.all(
    all.map(async (org) => ((await svc.services.members.get(org.id, memberId)) ? org.id : null)),
  );
  return owned.filter((id): id is string => id !== null);
}

describe('post-confirmation: a confirmed sign-up creates the organisation and its owner', () => {
  it('creates one organisation on the lowest plan with 10,000 test credits, named by the sign-up, and answers the event', async () => {
    const user = newUser();
    const event = postConfirmation(user, { 'custom:organization_name': 'Garage Nord' });
    expect(await handleCognitoTrigger(svc.services, event)).toBe(event);
    const [orgId] = await organizationsOwnedBy(user.sub);
    expect(await svc.services.accounts.getOrganization(orgId!)).toMatchObject({ name: 'Garage Nord', plan: 'free' });
    expect(await svc.services.accounts.getBalance(orgId!, false)).toBe(10_000);
    expect(await svc.services.accounts.getBalance(orgId!, true)).toBe(0);
    expect(await svc.services.members.list(orgId!)).toEqual([
      expect.objectContaining({ id: memberIdOfSubject(user.sub), email: user.email, role: 'owner', status: 'active' }),
    ]);
    expect(await svc.services.accounts.listApiKeys(orgId!)).toEqual([]);
  });

  it('creates exactly one organisation when Cognito retries the trigger, one after the other or at once', async () => {
    const user = newUser();
    await handleCognitoTrigger(svc.services, postConfirmation(user));
    await handleCognitoTrigger(svc.services, postConfirmation(user));
    await Promise.all([
      handleCognitoTrigger(svc.services, postConfirmation(user)),
      handleCognitoTrigger(svc.services, postConfirmation(user)),
    ]);
    const owned = await organizationsOwnedBy(user.sub);
    expect(owned).toHaveLength(1);
    expect((await svc.services.accounts.getOrganization(owned[0]!))?.name).toBe(`Organisation of ${user.email}`);
    // and its balance was funded once
    expect(await svc.services.accounts.getBalance(owned[0]!, false)).toBe(10_000);

    const racing = newUser();
    await Promise.all(Array.from({ length: 4 }, () => handleCognitoTrigger(svc.services, postConfirmation(racing))));
    expect(await organizationsOwnedBy(racing.sub)).toHaveLength(1);
  });

  it('a confirmed password reset creates nothing', async () => {
    const user = newUser();
    await handleCognitoTrigger(svc.services, postConfirmation(user, {}, 'PostConfirmation_ConfirmForgotPassword'));
    expect(await organizationsOwnedBy(user.sub)).toEqual([]);
  });
});

describe('pre-token-generation: org_id and role from the membership as it is now', () => {
  it('puts the owner’s org_id and role into the token, and the management surface accepts such a token', async () => {
    const user = newUser();
    await handleCognitoTrigger(svc.services, postConfirmation(user));
    const [orgId] = await organizationsOwnedBy(user.sub);
    const answered = await handleCognitoTrigger(svc.services, preTokenGeneration(user));
    expect(answered.response).toEqual({
      claimsOverrideDetails: { claimsToAddOrOverride: { org_id: orgId, role: 'owner' } },
    });
    // a token with those claims and Cognito's sub (signed here by the local issuer) reaches the organisation
    const claims = (answered as PreTokenGenerationTriggerEvent).response.claimsOverrideDetails.claimsToAddOrOverride!;
    const token = await svc.issuer.token(claims.org_id!, 'owner', { userId: user.sub });
    const organization = await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: token });
    expect(organization.status).toBe(200);
    expect(organization.body.id).toBe(orgId);
  });

  it('follows role changes and removals, for every kind of token generation', async () => {
    const owner = newUser();
    await handleCognitoTrigger(svc.services, postConfirmation(owner));
    const [orgId] = await organizationsOwnedBy(owner.sub);
    // a colleague invited through Cognito: their membership is keyed by their Cognito sub
    const colleague = newUser();
    const colleagueId = memberIdOfSubject(colleague.sub);
    await svc.services.members.add({
      id: colleagueId,
      org_id: orgId!,
      email: colleague.email,
      role: 'member',
      status: 'invited',
      created: 1,
    });
    for (const source of [
      'TokenGeneration_HostedAuth',
      'TokenGeneration_Authentication',
      'TokenGeneration_NewPasswordChallenge',
      'TokenGeneration_RefreshTokens',
    ] as const) {
      const answered = await handleCognitoTrigger(svc.services, preTokenGeneration(colleague, source));
      expect(answered.response.claimsOverrideDetails.claimsToAddOrOverride).toEqual({ org_id: orgId, role: 'member' });
    }
    // signing in accepted the invitation
    expect((await svc.services.members.get(orgId!, colleagueId))?.status).toBe('active');

    const promoted = await svc.services.members.changeRole(
      (await svc.services.members.get(orgId!, colleagueId))!,
      'admin',
    );
    expect(promoted).toMatchObject({ role: 'admin' });
    expect(
      (await handleCognitoTrigger(svc.services, preTokenGeneration(colleague))).response.claimsOverrideDetails
        .claimsToAddOrOverride,
    ).toEqual({
      org_id: orgId,
      role: 'admin',
    });

    // a token issued before the removal names the organisation, yet the membership is gone: refused at once
    const before = await svc.issuer.token(orgId!, 'admin', { userId: colleague.sub });
    expect(await svc.services.members.remove((await svc.services.members.get(orgId!, colleagueId))!)).toBe(true);
    const after = await handleCognitoTrigger(svc.services, preTokenGeneration(colleague));
    expect(after.response.claimsOverrideDetails).toBeNull();
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: before }),
      401,
      'authentication',
      'invalid_token',
    );
  });

  it('a user with no membership gets no claims', async () => {
    const stranger = newUser();
    expect(
      (await handleCognitoTrigger(svc.services, preTokenGeneration(stranger))).response.claimsOverrideDetails,
    ).toBeNull();
  });
});

describe('invitations into the user pool (the member routes on AWS)', () => {
  /** The environment the stack gives invite-member, and the SDK's way to the pool (here the double). */
  const stackEnvironment = () => ({
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.endpoint,
    COGNITO_USER_POOL_ID: USER_POOL,
    COGNITO_CLIENT_ID: CLIENT,
    COGNITO_DOMAIN_URL: 'https://ais-1234.auth.eu-central-1.amazoncognito.com',
    JWT_ISSUER: `https://cognito-idp.eu-central-1.amazonaws.com/${USER_POOL}`,
  });
  const onAws = <T>(work: (services: TestService['services']) => Promise<T>) =>
    withAws(emptyDir, stackEnvironment(), () => work(withIdentityProvider(svc.services)));

  async function founder(): Promise<{ caller: Member; orgId: string }> {
    const user = newUser();
    await handleCognitoTrigger(svc.services, postConfirmation(user));
    const [orgId] = await organizationsOwnedBy(user.sub);
    return { caller: { userId: memberIdOfSubject(user.sub), orgId: orgId!, role: 'owner' }, orgId: orgId! };
  }

  it('the sign-in options are the hosted UI of the pool with the code grant, for the dashboard’s app client', async () => {
    const options = await onAws(async (services) => services.identity.signInOptions());
    expect(options).toEqual({
      provider: 'cognito',
      sign_in_url: `https://ais-1234.auth.eu-central-1.amazoncognito.com/oauth2/authorize?client_id=${CLIENT}&response_type=code&scope=openid+email`,
      sign_up_url: `https://ais-1234.auth.eu-central-1.amazoncognito.com/signup?client_id=${CLIENT}&response_type=code&scope=openid+email`,
      token_url: 'https://ais-1234.auth.eu-central-1.amazoncognito.com/oauth2/token',
      client_id: CLIENT,
    });
  });

  it('an invitation creates the Cognito user (Cognito emails it), keyed by its sub; their first sign-in makes them active', async () => {
    const { caller, orgId } = await founder();
    const invited = await onAws((services) =>
      inviteMember(services, caller, { email: 'Mechanic@Garage.example', role: 'member' }),
    );
    const sub = cognito.users.get('mechanic@garage.example')!;
    expect(invited).toEqual({
      id: memberIdOfSubject(sub),
      object: 'member',
      email: 'mechanic@garage.example',
      role: 'member',
      status: 'invited',
      created: expect.any(Number),
    });
    expect(cognito.invited).toContain('mechanic@garage.example');
    const signedIn = await handleCognitoTrigger(
      svc.services,
      preTokenGeneration({ sub, email: 'mechanic@garage.example' }, 'TokenGeneration_NewPasswordChallenge'),
    );
    expect(signedIn.response.claimsOverrideDetails.claimsToAddOrOverride).toEqual({ org_id: orgId, role: 'member' });
    expect((await svc.services.members.get(orgId, invited.id))?.status).toBe('active');
  });

  it('someone who already has a user keeps it (no second invitation email); someone in another organisation is 409', async () => {
    const { caller } = await founder();
    const existing = newUser();
    cognito.users.set(existing.email, existing.sub);
    const invited = await onAws((services) => inviteMember(services, caller, { email: existing.email, role: 'admin' }));
    expect(invited.id).toBe(memberIdOfSubject(existing.sub));
    expect(cognito.invited).not.toContain(existing.email);

    const other = await founder();
    const refused = await onAws((services) =>
      inviteMember(services, other.caller, { email: existing.email, role: 'member' }).catch((error: unknown) => error),
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'member_already_exists', param: 'email' });
  });
});
