import { presentBatch } from '../../domain/batches/batch-view.js';
import { findOrganizationBatch, listOrganizationBatches as listBatches } from '../../domain/batches/batches.js';
import { cancelBatch } from '../../domain/batches/cancel.js';
import { implementJwt } from '../implement-jwt.js';
import * as batches from '../routes/batches.js';

// The organisation's batches as the dashboard reads them (management surface; docs/batches.md).

/** `GET /mgmt/v1/batches`: every key's batches, one mode or both, newest first. */
export const listOrganizationBatches = implementJwt(
  batches.listOrganizationBatches,
  async ({ services, member, query }) => {
    const page = await listBatches(services, {
      orgId: member.orgId,
      limit: query.limit,
      ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
      ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    });
    return {
      status: 200,
      body: {
        object: 'list' as const,
        data: await Promise.all(page.items.map((batch) => presentBatch(services, batch))),
        has_more: page.hasMore,
      },
    };
  },
);

/** `GET /mgmt/v1/batches/{id}` */
export const getOrganizationBatch = implementJwt(batches.getOrganizationBatch, async ({ services, member, params }) => {
  return { status: 200, body: await presentBatch(services, await findOrganizationBatch(services, member, params.id)) };
});

/** `POST /mgmt/v1/batches/{id}/cancel`: the dashboard's cancel, either mode. */
export const cancelOrganizationBatch = implementJwt(
  batches.cancelOrganizationBatch,
  async ({ services, member, params }) => {
    const batch = await findOrganizationBatch(services, member, params.id);
    return { status: 200, body: await presentBatch(services, await cancelBatch(services, batch)) };
  },
);
