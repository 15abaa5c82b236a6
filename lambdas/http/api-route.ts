import { authenticateApiKey } from '../domain/api-keys.js';
import type { Services } from '../domain/deps.js';
import type { Principal } from '../domain/principal.js';
import { httpHandler, type HttpHandler } from './handler.js';
import { bearerToken, type HttpRequest } from './request.js';
import type { HttpResponse } from './response.js';

export type ApiRouteImplementation = (request: HttpRequest, principal: Principal) => Promise<HttpResponse>;

/** A `/v1` route: API-key authentication first, then the route's own work. */
export function apiRoute(services: Services, implementation: ApiRouteImplementation): HttpHandler {
  return httpHandler(services, async (request) => {
    const principal = await authenticateApiKey(services, bearerToken(request));
    return implementation(request, principal);
  });
}
