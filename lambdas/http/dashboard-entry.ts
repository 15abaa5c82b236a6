import type { Container } from '../container.js';
import { tokenVerifierFromEnvironment } from '../container-auth.js';
import type { HttpHandler } from './handler.js';
import { lambdaEntry } from './lambda-entry.js';

/** Adds the JWT verifier configured in the environment to the container (once per cold start). */
export function withTokenVerifier(container: Container): Container {
  return { ...container, tokens: tokenVerifierFromEnvironment(container.clock) ?? container.tokens };
}

/** The Lambda export of a `/mgmt/v1` handler. */
export function dashboardEntry(build: (container: Container) => HttpHandler): HttpHandler {
  return lambdaEntry((container) => build(withTokenVerifier(container)));
}
