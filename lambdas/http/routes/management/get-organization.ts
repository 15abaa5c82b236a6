import { presentOrganization } from '../../../domain/access/organization-view.js';
import { OrganizationSchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'get-organization',
  method: 'GET',
  path: '/mgmt/v1/organization',
  minimumRole: 'member',
  summary: 'The organisation of the token: plan, live and test balances, billing country, retention',
  responses: { 200: { description: 'the organisation', schema: OrganizationSchema } },
  errors: ['resource_not_found'],
  access: { table: 'read' },
});

/** `GET /mgmt/v1/organization` */
export const handler = implementJwt(route, async ({ services, member }) => ({
  status: 200,
  body: await presentOrganization(services, member.orgId),
}));
