import { findEvent } from '../../../domain/webhooks/presentation.js';
import { EventIdParams, EventSchema } from '../../../schemas/webhooks.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'get-event',
  method: 'GET',
  path: '/mgmt/v1/events/{id}',
  minimumRole: 'admin',
  summary: 'Retrieve one event exactly as it was sent',
  params: EventIdParams,
  notFound: 'event_not_found',
  responses: { 200: { description: 'the event', schema: EventSchema } },
  errors: [],
  access: { table: 'read' },
});

export const handler = implementJwt(route, async ({ services, member, params }) => ({
  status: 200,
  body: (await findEvent(services, member, params.id)).event,
}));
