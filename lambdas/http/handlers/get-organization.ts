import { presentOrganization } from '../../domain/access/organization-view.js';
import { implementJwt } from '../implement-jwt.js';
import { getOrganization } from '../routes/management.js';

/** `GET /mgmt/v1/organization` */
export const handler = implementJwt(getOrganization, async ({ services, member }) => ({ status: 200, body: await presentOrganization(services, member.orgId) }));
