import { dashboardEntry } from '../dashboard-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { httpHandler, type HttpHandler } from '../handler.js';
import { json } from '../response.js';

/** `GET /.well-known/jwks.json`: the keys dashboard tokens verify against (the local issuer's, or the configured issuer's). */
export function getJwksHandler(services: Services): HttpHandler {
  return httpHandler(services, async () => json(200, await services.tokens.publishedKeys(), { 'Cache-Control': 'public, max-age=300' }));
}

export const handler = dashboardEntry((container) => getJwksHandler(container));
