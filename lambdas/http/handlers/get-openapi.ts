import { lambdaEntry } from '../lambda-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { httpHandler, type HttpHandler } from '../handler.js';
import { buildOpenApiDocument } from '../openapi.js';
import { json } from '../response.js';

/** `GET /v1/openapi.json`: generated from the route table and zod schemas, once per cold start. */
export function getOpenApiHandler(services: Services): HttpHandler {
  let document: Record<string, unknown> | undefined;
  return httpHandler(services, async () => {
    document ??= buildOpenApiDocument();
    return json(200, document);
  });
}

export const handler = lambdaEntry((container) => getOpenApiHandler(container));
