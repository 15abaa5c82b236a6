import type { Container } from '../container.js';
import { paymentProviderFromEnvironment } from '../container-billing.js';
import { withTokenVerifier } from './dashboard-entry.js';
import type { HttpHandler } from './handler.js';
import { lambdaEntry } from './lambda-entry.js';

/** The Lambda export of a billing handler: the JWT verifier and the payment provider from the environment. */
export function billingEntry(build: (container: Container) => HttpHandler): HttpHandler {
  return lambdaEntry((container) => {
    const withTokens = withTokenVerifier(container);
    return build({ ...withTokens, payments: paymentProviderFromEnvironment(container.clock) ?? container.payments });
  });
}
