import type { EndpointSlug } from '../domain/catalogue/catalogue.js';
import type { Services } from '../domain/ports/services.js';
import type { HttpHandler } from './handler.js';
import { cancelJobHandler } from './handlers/cancel-job.js';
import { createJobHandler } from './handlers/create-job.js';
import { createUploadHandler } from './handlers/create-upload.js';
import { getErrorDocHandler } from './handlers/get-error-doc.js';
import { getJobHandler } from './handlers/get-job.js';
import { getOpenApiHandler } from './handlers/get-openapi.js';
import { listEndpointsHandler } from './handlers/list-endpoints.js';
import { listJobsHandler } from './handlers/list-jobs.js';
import { receiveCompletionHandler } from './handlers/receive-completion.js';
import type { HandlerName, RouteDefinition } from './routes.js';
import { MANAGEMENT_HANDLER_FACTORIES } from './handler-registry-management.js';

export type HandlerFactory = (services: Services, route: RouteDefinition) => HttpHandler;

/** How the local runtime builds each route's handler in-process (Lambda uses each module's `handler`). */
export const HANDLER_FACTORIES: Record<HandlerName, HandlerFactory> = {
  ...MANAGEMENT_HANDLER_FACTORIES,
  'create-job': (services, route) => createJobHandler(services, route.slug as EndpointSlug),
  'get-job': getJobHandler,
  'list-jobs': listJobsHandler,
  'cancel-job': cancelJobHandler,
  'list-endpoints': listEndpointsHandler,
  'get-openapi': getOpenApiHandler,
  'get-error-doc': getErrorDocHandler,
  'create-upload': createUploadHandler,
  'receive-completion': receiveCompletionHandler,
};
