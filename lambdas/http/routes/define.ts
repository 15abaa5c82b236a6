import type * as z from 'zod/mini';
import type { Role } from '../../domain/access/member.js';
import type { EndpointSlug } from '../../domain/catalogue/catalogue.js';
import type { ErrorCode } from '../../domain/kernel/errors.js';

export type AuthKind = 'api_key' | 'jwt' | 'signature' | 'none';

/**
 * The middleware a route may declare:
 * - `read-rate-limit`: the plan's read window of the key's organisation and mode, headers on every answer;
 * - `quote-rate-limit`: the key's own quote window, headers on every answer;
 * - `idempotency`: Idempotency-Key on POST, the answer stored and replayed;
 * - `idempotency-without-secret`: the same, but a replay never reveals a secret (the stored answer has none);
 * - `strict-input`: a query parameter or body field the route does not declare is refused.
 * An inference call declares none: its admission (domain/jobs/admission.ts) rate-limits it and runs its
 * Idempotency-Key in the admission transaction.
 */
export type MiddlewareName =
  | 'read-rate-limit'
  | 'quote-rate-limit'
  | 'idempotency'
  | 'idempotency-without-secret'
  | 'strict-input';
/** `ANY`: the catch-all routes only (routes/internal/route-not-found.ts), whatever the method asked for. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'ANY';

/** Object key prefixes of the one bucket (lib/data.ts maps them to the real prefixes). */
export type ObjectPrefix = 'inputs' | 'uploads' | 'outputs';

/** What one function may touch; anything not listed is denied (lib/access.ts turns it into IAM). */
export interface DataAccess {
  /** `count`: reads plus UpdateItem, for the rate-limit and polling counters and `last_used_at` */
  table: 'none' | 'read' | 'count' | 'readwrite';
  /** may send to the work queue */
  enqueue?: boolean;
  /** may send to the webhook delivery queue */
  enqueueWebhooks?: boolean;
  /** s3:PutObject under these prefixes (also what a presigned PUT needs) */
  writeObjects?: readonly ObjectPrefix[];
  /** s3:GetObject under these prefixes (HeadObject, and what a presigned GET needs) */
  readObjects?: readonly ObjectPrefix[];
  /** s3:ListBucket: without it S3 answers HeadObject of a missing key with 403 instead of 404 */
  listObjects?: boolean;
  /** s3:DeleteObject under these prefixes (redaction and retention) */
  deleteObjects?: readonly ObjectPrefix[];
}

/**
 * Deploy-time settings a route's function needs beyond the service's own (lib/management-settings.ts
 * maps each to environment variables and grants): the JWT issuer, the payment provider, the local
 * payment pages, the inference plane's callback secret, the identity provider people sign in with
 * (its sign-in pages), and inviting people into it (Cognito's admin calls).
 */
export type RouteSetting =
  | 'jwt_issuer'
  | 'payments'
  | 'local_payments'
  | 'inference_callback_secret'
  | 'identity_provider'
  | 'invitations';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodMiniType;
  /** default application/json */
  contentType?: string;
}

/** The one definition of a route: CDK, the local runtime, the OpenAPI document and the wrapper all read it. */
export interface RouteDefinition {
  /** stable, unique; names the Lambda function and the OpenAPI operation */
  id: string;
  method: HttpMethod;
  /** API Gateway path, `{name}` for path parameters */
  path: string;
  summary: string;
  tag: string;
  auth: AuthKind;
  /** jwt routes: the lowest role allowed */
  minimumRole?: Role;
  /** signature routes: the header carrying the signature */
  signatureHeader?: 'X-Inference-Signature' | 'Stripe-Signature';
  /** inference routes: the endpoint admitted (its body is multipart or JSON, parsed by the handler) */
  slug?: EndpointSlug;
  /** quote routes: the endpoint quoted (its JSON body is the call's, parsed by the handler; no Idempotency-Key, its own rate-limit window) */
  quoteOf?: EndpointSlug;
  /** path parameters; a value that does not match answers 404 with `notFound` */
  params?: z.ZodMiniObject;
  notFound?: ErrorCode;
  /** query parameters (one value each) */
  query?: z.ZodMiniType;
  /** JSON body */
  body?: z.ZodMiniType;
  /** success responses by status */
  responses: Readonly<Record<number, ResponseSpec>>;
  /** the codes the route's own work can answer; the pipeline's codes are added by `errorCodesOf` */
  errors: readonly ErrorCode[];
  /**
   * the steps a request passes through after authentication (by `auth`) and before the route's
   * validation and handler, in order (lambdas/http/route-pipeline.ts composes them as middy middleware)
   */
  middleware: readonly MiddlewareName[];
  access: DataAccess;
  settings?: readonly RouteSetting[];
  /**
   * the route module that states this definition and exports its `handler`: always `import.meta.url`
   * of that module, so the function builder and the local runtime find the code from the definition
   */
  module: string;
  /**
   * how long the route's function may run: seconds (held under API Gateway's 29 s integration
   * timeout), or `integration` for a `wait=true` route, which runs to the stack's own integration
   * timeout (lib/wait-ceiling.ts)
   */
  timeoutSeconds: number | 'integration';
  /** the largest body the route can accept; larger requests are refused before they are read */
  maxBodyBytes: number;
  /** the local runtime's own pages: deployed to AWS only with the `local_payments` setting (LocalStack end-to-end runs), where they answer 404 unless their local stand-in is configured */
  localOnly?: boolean;
}

/**
 * The name of the function that serves a route: its module's file name (`routes/management/create-api-key.ts`
 * → `create-api-key`). One function per module: every route a module states shares its access, settings and role.
 */
export function functionName(route: Pick<RouteDefinition, 'module'>): string {
  const file = route.module.slice(route.module.lastIndexOf('/') + 1);
  return file.replace(/\.[cm]?[jt]s$/, '');
}

/** The catch-all routes (`ANY /`, `ANY /{proxy+}`): where unknown paths get the service's own 404. */
export function isCatchAll(route: Pick<RouteDefinition, 'method'>): boolean {
  return route.method === 'ANY';
}

/** Keeps the literal types of a definition (its schemas, statuses and auth) for the handler's typing. */
export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

/** A JSON body of a management or upload call is small. */
export const JSON_BODY_BYTES = 1024 * 1024;

const MANAGEMENT_TAG = 'Management';

/** What every management route shares: JWT auth, its tag, a 10 s timeout, the role in its summary, its middleware. */
export function managementRoute<
  const R extends Omit<RouteDefinition, 'auth' | 'tag' | 'timeoutSeconds' | 'maxBodyBytes' | 'middleware'> & {
    minimumRole: Role;
    timeoutSeconds?: number;
    /** default: Idempotency-Key stored and replayed, undeclared input refused */
    middleware?: readonly MiddlewareName[];
  },
>(
  route: R,
): R & {
  auth: 'jwt';
  tag: string;
  timeoutSeconds: number;
  maxBodyBytes: number;
  middleware: readonly MiddlewareName[];
} {
  return defineRoute({
    ...route,
    middleware: route.middleware ?? ['idempotency', 'strict-input'],
    auth: 'jwt',
    tag: MANAGEMENT_TAG,
    timeoutSeconds: route.timeoutSeconds ?? 10,
    maxBodyBytes: route.method === 'GET' ? 0 : JSON_BODY_BYTES,
    summary: `${route.summary} (role: ${route.minimumRole} or higher)`,
  });
}
