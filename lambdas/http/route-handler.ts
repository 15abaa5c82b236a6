import type * as z from 'zod/mini';
import type { Container } from '../composition/container.js';
import type { Member } from '../domain/access/member.js';
import type { Principal } from '../domain/access/principal.js';
import type { Clock } from '../domain/kernel/clock.js';
import type { StoredResponse, TokenVerifier } from '../domain/ports/access.js';
import type { Services } from '../domain/ports/services.js';
import type { BoundRoute, HttpHandler } from './handler.js';
import type { HttpRequest, RequestLogFields } from './request.js';
import type { RouteDefinition } from './routes/define.js';

// What a route module's handler is, takes and answers: shared by `implement` (implement.ts), which
// runs nothing at import, and the pipeline it loads on the first request (route-pipeline.ts).

type Parsed<S> = S extends z.ZodMiniType ? z.output<S> : undefined;
type BodyOf<S> = S extends { schema: z.ZodMiniType } ? z.output<S['schema']> : string;

/**
 * What a handler may answer: one of its route's declared statuses, with that status's body type;
 * or, for a handler that runs its own Idempotency-Key (the admission), the answer the key stored.
 */
export type RouteReply<R extends RouteDefinition> =
  | {
      [S in keyof R['responses']]: {
        status: S extends number ? S : never;
        body: BodyOf<R['responses'][S]>;
        headers?: Record<string, string>;
        contentType?: string;
      };
    }[keyof R['responses']]
  | { replayed: StoredResponse; headers: Record<string, string> };

type CallerOf<R extends RouteDefinition> = R['auth'] extends 'api_key'
  ? { principal: Principal }
  : R['auth'] extends 'jwt'
    ? { member: Member }
    : unknown;

/** The typed, validated input of a handler: its route's schemas decide the types. */
export type RouteInput<R extends RouteDefinition> = {
  route: R;
  services: Services;
  request: HttpRequest;
  /** the request's log line: a handler adds what it learns (the job a callback names) */
  log: RequestLogFields;
  params: Parsed<R['params']>;
  query: Parsed<R['query']>;
  body: Parsed<R['body']>;
} & CallerOf<R>;

export type RouteImplementation<R extends RouteDefinition> = (input: RouteInput<R>) => Promise<RouteReply<R>>;

/** A route module's `handler` export: the Lambda entry, and what the local runtime binds to its own services. */
export interface RouteHandler extends HttpHandler {
  readonly routes: readonly RouteDefinition[];
  forServices(services: Services): BoundRoute;
}

/**
 * What a route adds to the service on Lambda, each loaded on the first request (a dynamic import
 * written in the route module), so that importing the definition loads none of it and only the
 * bundles of the routes that name it carry it.
 */
export interface ImplementOptions {
  /** adds what the route's `settings` need beyond the service itself (the payment provider, the identity provider) */
  extend?: () => Promise<(container: Container) => Container>;
  /**
   * routes that verify dashboard tokens (JWT auth, or the `jwt_issuer` setting): the verifier from the
   * environment, passed by their handlers (implement-jwt.ts) so that only their bundles carry `jose`
   */
  tokenVerifier?: () => Promise<(clock: Clock) => TokenVerifier | undefined>;
}

export function needsTokens(route: RouteDefinition): boolean {
  return route.auth === 'jwt' || route.settings?.includes('jwt_issuer') === true;
}
