import { findEvent } from '../../domain/webhooks/presentation.js';
import { implement } from '../implement.js';
import { getEvent } from '../routes/webhooks.js';

export const handler = implement(getEvent, async ({ services, member, params }) => ({ status: 200, body: (await findEvent(services, member.orgId, params.id)).event }));
