import type { RouteDefinition } from './routes.js';

/** Routes of the management surface (`/mgmt/v1`), the auth component and internal callbacks. */
export const MANAGEMENT_ROUTES: readonly RouteDefinition[] = [];

/** Module names under lambdas/http/handlers for the routes above. */
export type ManagementHandlerName = never;
