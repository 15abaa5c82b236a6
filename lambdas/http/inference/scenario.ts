import { ALL_SCENARIOS, type EndpointDefinition, type Scenario } from '../../domain/catalogue/catalogue.js';
import { ApiError } from '../../domain/kernel/errors.js';
import type { Principal } from '../../domain/access/principal.js';
import type { HttpRequest } from '../request.js';

export const SCENARIO_HEADER = 'X-Svc-Test-Scenario';

/** Live keys ignore the header; test keys must name a scenario the endpoint supports. */
export function parseScenario(request: HttpRequest, principal: Principal, endpoint: EndpointDefinition): Scenario | null {
  if (principal.livemode) return null;
  const raw = request.headers[SCENARIO_HEADER.toLowerCase()];
  if (raw === undefined || raw.trim() === '') return null;
  const value = raw.trim();
  if (!(ALL_SCENARIOS as readonly string[]).includes(value)) {
    throw new ApiError('test_scenario_not_supported', SCENARIO_HEADER, `Unknown test scenario ${value}. Known: ${ALL_SCENARIOS.join(', ')}.`);
  }
  if (!endpoint.scenarios.includes(value as Scenario)) {
    throw new ApiError(
      'test_scenario_not_supported',
      SCENARIO_HEADER,
      `${endpoint.slug} does not support the test scenario ${value}; it supports ${endpoint.scenarios.join(', ')}.`,
    );
  }
  return value as Scenario;
}
