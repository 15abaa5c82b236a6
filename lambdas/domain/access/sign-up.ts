import { ApiError } from '../kernel/errors.js';
import type { Services } from '../ports/services.js';
import { presentMember, type PublicMember } from './memberships.js';
import { presentOrganization, type PublicOrganization } from './organization-view.js';
import { signUpOrganization } from './organizations.js';

/**
 * The local sign-up (`/dashboard/signup`): an organisation on the lowest plan with test credits,
 * its owner, and the owner's sign-in link. Only where the service signs people in itself; on AWS
 * Cognito's hosted UI signs people up and its post-confirmation trigger creates the organisation.
 */
export async function signUpLocally(
  services: Services,
  input: { organizationName: string; email: string },
): Promise<{ object: 'sign_up'; organization: PublicOrganization; member: PublicMember; login_url: string }> {
  if (services.identity.signInOptions().provider !== 'local')
    throw new ApiError('route_not_found', null, 'Sign-up here is the local runtime’s; sign up through the configured identity provider.');
  const created = await signUpOrganization(services, { name: input.organizationName, ownerEmail: input.email });
  // a fresh random owner id cannot already belong to an organisation
  if (!created) throw new Error('a new owner already belonged to an organisation');
  const loginUrl = await services.identity.signInLink(created.owner);
  if (!loginUrl) throw new Error('the local identity provider gave no sign-in link');
  return { object: 'sign_up', organization: await presentOrganization(services, created.organization.id), member: presentMember(created.owner), login_url: loginUrl };
}
