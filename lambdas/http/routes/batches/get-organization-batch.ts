import { presentBatch } from '../../../domain/batches/batch-view.js';
import { findOrganizationBatch } from '../../../domain/batches/batches.js';
import { BatchIdParams, BatchSchema } from '../../../schemas/batches.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'get-organization-batch',
  method: 'GET',
  path: '/mgmt/v1/batches/{id}',
  minimumRole: 'member',
  summary: 'A batch as GET /v1/batches/{id} shows it, either mode',
  params: BatchIdParams,
  notFound: 'batch_not_found',
  responses: { 200: { description: 'the batch', schema: BatchSchema } },
  errors: [],
  access: { table: 'read', readObjects: ['outputs'] },
});

/** `GET /mgmt/v1/batches/{id}` */
export const handler = implementJwt(route, async ({ services, member, params }) => {
  return { status: 200, body: await presentBatch(services, await findOrganizationBatch(services, member, params.id)) };
});
