import { presentJobPage } from '../../domain/jobs/job-view.js';
import { implementJwt } from '../implement-jwt.js';
import { listOrganizationJobs } from '../routes/management.js';

/** `GET /mgmt/v1/jobs`: the page shape of GET /v1/jobs, across every key of the organisation and both modes. */
export const handler = implementJwt(listOrganizationJobs, async ({ services, member, query }) => {
  const page = await presentJobPage(services, {
    orgId: member.orgId,
    limit: query.limit,
    ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.endpoint ? { endpoint: query.endpoint } : {}),
    ...(query.top_level ? { topLevelOnly: true } : {}),
  });
  return { status: 200, body: page };
});
