import type { HandlerFactory } from './handler-registry.js';
import type { ManagementHandlerName } from './routes-management.js';

/** How the local runtime builds the management routes' handlers in-process. */
export const MANAGEMENT_HANDLER_FACTORIES: Record<ManagementHandlerName, HandlerFactory> = {};
