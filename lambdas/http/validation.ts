import type * as z from 'zod';
import { ApiError } from '../domain/errors.js';

/** Validates with a zod schema and turns the first issue into a precise 400 naming the param. */
export function validateParams<S extends z.ZodType>(schema: S, input: unknown, paramPrefix = ''): z.output<S> {
  const outcome = schema.safeParse(input, { reportInput: true });
  if (outcome.success) return outcome.data;
  const issue = outcome.error.issues[0]!;
  const path = [paramPrefix, ...issue.path.map(String)].filter(Boolean).join('.');
  if (issue.code === 'unrecognized_keys') {
    const name = [path, issue.keys[0]].filter(Boolean).join('.');
    throw new ApiError('parameter_unknown', name, `Unknown parameter ${name}.`);
  }
  // a required enum reports `invalid_value` when absent, a required scalar `invalid_type`: both are missing
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined) {
    throw new ApiError('parameter_missing', path || null, `Missing required parameter ${path}.`);
  }
  throw new ApiError('parameter_invalid', path || null, `Invalid value for ${path || 'the request'}: ${issue.message}.`);
}
