import * as z from 'zod/mini';
import { LocalSignUpAnswerSchema, LocalSignUpSchema } from '../../schemas/members.js';
import { defineRoute, JSON_BODY_BYTES, type RouteDefinition } from './define.js';

// session ids carry their own signed claims, so they run to a few hundred characters
const SessionParams = z.object({ session: z.string().check(z.minLength(1), z.maxLength(2048)) });

/** The local payment provider's pages: the local runtime, and AWS only with the `local_payments` setting. */
function localPage<
  const R extends Pick<RouteDefinition, 'id' | 'method' | 'path' | 'summary' | 'responses' | 'access' | 'handler'>,
>(
  route: R,
): R & {
  auth: 'none';
  params: typeof SessionParams;
  tag: string;
  errors: RouteDefinition['errors'];
  timeoutSeconds: number;
  maxBodyBytes: number;
} {
  return defineRoute({
    ...route,
    tag: 'Internal',
    auth: 'none',
    params: SessionParams,
    notFound: 'resource_not_found',
    errors: ['resource_not_found'],
    settings: ['payments', 'local_payments'],
    localOnly: true,
    timeoutSeconds: 10,
    maxBodyBytes: route.method === 'GET' ? 0 : JSON_BODY_BYTES,
  });
}

const HTML = { description: 'an HTML page', contentType: 'text/html' } as const;

export const localCheckoutPage = localPage({
  id: 'local-checkout-page',
  method: 'GET',
  path: '/local/checkout/{session}',
  summary: 'Local runtime only: the stand-in payment page of a checkout session',
  responses: { 200: HTML },
  access: { table: 'none' },
  handler: 'local-payments#localCheckoutPage',
});

export const localCheckoutPay = localPage({
  id: 'local-checkout-pay',
  method: 'POST',
  path: '/local/checkout/{session}/pay',
  summary: 'Local runtime only: the pay button; sends the signed provider event to /internal/v1/billing/events',
  responses: {
    200: { description: 'an HTML page with the outcome', contentType: 'text/html' },
    502: { description: 'the events route refused the event', contentType: 'text/html' },
  },
  access: { table: 'none' },
  handler: 'local-payments#localCheckoutPay',
});

export const localPortalPage = localPage({
  id: 'local-portal-page',
  method: 'GET',
  path: '/local/portal/{session}',
  summary: 'Local runtime only: the stand-in billing portal',
  responses: { 200: HTML },
  access: { table: 'read' },
  handler: 'local-payments#localPortalPage',
});

/** What `/dashboard/signup` posts: the local runtime signs people up itself (on AWS, Cognito's hosted UI does). */
export const localSignUp = defineRoute({
  id: 'local-sign-up',
  method: 'POST',
  path: '/local/signup',
  summary:
    'Local runtime only: create an organisation on the lowest plan with 10,000 test credits, and sign its owner in',
  tag: 'Internal',
  auth: 'none',
  body: LocalSignUpSchema,
  responses: {
    201: { description: 'the organisation, its owner and the owner’s sign-in link', schema: LocalSignUpAnswerSchema },
  },
  // where the local issuer does not sign people in (AWS)
  errors: ['route_not_found'],
  // one transaction: the organisation, balances, ledger, owner
  access: { table: 'readwrite' },
  settings: ['identity_provider'],
  localOnly: true,
  handler: 'sign-in#localSignUp',
  timeoutSeconds: 10,
  maxBodyBytes: JSON_BODY_BYTES,
});

export const LOCAL_ROUTES = [localCheckoutPage, localCheckoutPay, localPortalPage, localSignUp] as const;
