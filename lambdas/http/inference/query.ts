import type { EndpointDefinition } from '../../domain/catalogue/catalogue.js';
import { ApiError } from '../../domain/kernel/errors.js';
import type { HttpRequest } from '../request.js';

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

/** `wait` is the only query parameter an inference call takes. */
export function parseWait(request: HttpRequest, endpoint: EndpointDefinition): boolean {
  for (const name of Object.keys(request.query)) {
    if (name !== 'wait') throw new ApiError('parameter_unknown', name, `Unknown query parameter ${name}.`);
  }
  const values = request.query.wait;
  if (!values) return false;
  const wait = values.length === 1 ? BOOLEAN_WORDS[values[0]!.toLowerCase()] : undefined;
  if (wait === undefined) throw new ApiError('parameter_invalid', 'wait', 'wait must be true or false.');
  if (wait && !endpoint.acceptsWait) throw new ApiError('wait_not_supported', 'wait', `${endpoint.slug} runs too long for wait=true; poll GET /v1/jobs/{id} or use webhooks.`);
  return wait;
}
