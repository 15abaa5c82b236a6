import { BATCH_ROUTES } from './batches.js';
import type { RouteDefinition } from './define.js';
import { INFERENCE_ROUTES } from './inference.js';
import { INTERNAL_ROUTES } from './internal.js';
import { JOB_ROUTES } from './jobs.js';
import { LOCAL_ROUTES } from './local.js';
import { MANAGEMENT_ROUTES } from './management.js';
import { MEMBER_ROUTES } from './members.js';
import { QUOTE_ROUTES } from './quotes.js';
import { UPLOAD_ROUTES } from './uploads.js';
import { WEBHOOK_ROUTES } from './webhooks.js';

/** Every route of the service, read by CDK, the local runtime and the OpenAPI generator. */
export const ROUTES: readonly RouteDefinition[] = [
  ...INFERENCE_ROUTES,
  ...QUOTE_ROUTES,
  ...JOB_ROUTES,
  ...BATCH_ROUTES,
  ...UPLOAD_ROUTES,
  ...MANAGEMENT_ROUTES,
  ...MEMBER_ROUTES,
  ...WEBHOOK_ROUTES,
  ...INTERNAL_ROUTES,
  ...LOCAL_ROUTES,
];

/**
 * The routes the OpenAPI document describes: every one but the local runtime's own pages
 * (`/local/…`, `localOnly`), which are no part of the API a deployed stack serves (docs/architecture.md).
 */
export const DOCUMENTED_ROUTES: readonly RouteDefinition[] = ROUTES.filter((route) => !route.localOnly);
