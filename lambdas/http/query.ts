import { ApiError } from '../domain/kernel/errors.js';
import type { HttpRequest } from './request.js';

/** List filters take one value each; a repeated parameter is ambiguous, so refuse it. */
export function singleValuedQuery(request: HttpRequest): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [name, values] of Object.entries(request.query)) {
    if (values.length !== 1) throw new ApiError('parameter_invalid', name, `${name} may appear only once.`);
    out[name] = values[0]!;
  }
  return out;
}
