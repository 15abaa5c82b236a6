import { findEvent } from '../../domain/webhooks/presentation.js';
import { implementJwt } from '../implement-jwt.js';
import { getEvent } from '../routes/webhooks.js';

export const handler = implementJwt(getEvent, async ({ services, member, params }) => ({ status: 200, body: (await findEvent(services, member, params.id)).event }));
