import { presentBatch } from '../../../domain/batches/batch-view.js';
import { findOrganizationBatch } from '../../../domain/batches/batches.js';
import { cancelBatch } from '../../../domain/batches/cancel.js';
import { BatchIdParams, BatchSchema } from '../../../schemas/batches.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';
import { CANCEL_ACCESS } from '../jobs/data-access.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'cancel-organization-batch',
  method: 'POST',
  path: '/mgmt/v1/batches/{id}/cancel',
  minimumRole: 'admin',
  summary: 'What POST /v1/batches/{id}/cancel does, for any batch of the organisation in either mode',
  params: BatchIdParams,
  notFound: 'batch_not_found',
  responses: { 200: { description: 'the batch, canceling or canceled', schema: BatchSchema } },
  errors: ['batch_not_cancelable'],
  access: CANCEL_ACCESS,
  timeoutSeconds: 28,
});

/** `POST /mgmt/v1/batches/{id}/cancel`: the dashboard's cancel, either mode. */
export const handler = implementJwt(route, async ({ services, member, params }) => {
  const batch = await findOrganizationBatch(services, member, params.id);
  return { status: 200, body: await presentBatch(services, await cancelBatch(services, batch)) };
});
