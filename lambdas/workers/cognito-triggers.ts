import type { PostConfirmationTriggerEvent, PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { containerFromEnvironment } from '../composition/container.js';
import { memberIdOfSubject } from '../domain/access/members.js';
import { membershipClaims } from '../domain/access/memberships.js';
import { signUpOrganization } from '../domain/access/organizations.js';
import type { Services } from '../domain/ports/services.js';

export type CognitoTriggerEvent = PostConfirmationTriggerEvent | PreTokenGenerationTriggerEvent;

/** the custom attribute a sign-up form may send; Cognito's hosted UI collects only the email */
const ORGANIZATION_NAME_ATTRIBUTE = 'custom:organization_name';

/**
 * A confirmed sign-up creates the organisation and its owner. Cognito may invoke a trigger more
 * than once; the owner's membership is written in the same transaction as the organisation and
 * refuses a second one, so a retry creates nothing more.
 */
async function confirmSignUp(services: Services, event: PostConfirmationTriggerEvent): Promise<void> {
  const { sub, email } = event.request.userAttributes;
  if (!sub || !email) throw new Error('a confirmed sign-up without sub or email');
  const name = event.request.userAttributes[ORGANIZATION_NAME_ATTRIBUTE]?.trim() || `Organisation of ${email}`;
  const created = await signUpOrganization(services, {
    name: name.slice(0, 100),
    ownerEmail: email,
    ownerId: memberIdOfSubject(sub),
  });
  services.log.info(created ? 'sign-up: organisation created' : 'sign-up: already a member (a retried trigger)', {
    org_id: created?.organization.id ?? (await services.members.organizationOf(memberIdOfSubject(sub))),
  });
}

/** Every token Cognito issues carries `org_id` and `role` from the membership as it is now (ID tokens; at most 15 minutes). */
async function addMembershipClaims(services: Services, event: PreTokenGenerationTriggerEvent): Promise<void> {
  const sub = event.request.userAttributes.sub;
  const claims = sub ? await membershipClaims(services, sub) : null;
  if (claims)
    event.response.claimsOverrideDetails = {
      ...event.response.claimsOverrideDetails,
      claimsToAddOrOverride: { ...claims },
    };
}

/** One function for both triggers of the user pool (lib/signup.ts): one warm instance, one role. */
export async function handleCognitoTrigger<E extends CognitoTriggerEvent>(services: Services, event: E): Promise<E> {
  if (event.triggerSource === 'PostConfirmation_ConfirmSignUp') await confirmSignUp(services, event);
  else if (event.triggerSource.startsWith('TokenGeneration_'))
    await addMembershipClaims(services, event as PreTokenGenerationTriggerEvent);
  // anything else (a confirmed password reset) changes nothing
  return event;
}

export const handler = (event: CognitoTriggerEvent): Promise<CognitoTriggerEvent> =>
  handleCognitoTrigger(containerFromEnvironment(), event);
