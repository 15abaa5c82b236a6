import type * as z from 'zod/mini';
import { ApiError, ERROR_CODES, type ErrorCode } from '../domain/kernel/errors.js';
// the English issue messages quoted below (zod/mini loads no locale by itself)
import { refusalOf } from '../schemas/zod.js';

/**
 * A schema refinement that needs a narrower code than `parameter_invalid` names it in the
 * issue: `ctx.addIssue({ code: 'custom', path, message, params: { error_code: 'parameters_exclusive' } })`.
 */
function refinementCode(issue: z.core.$ZodIssue): ErrorCode | null {
  if (issue.code !== 'custom') return null;
  const code = (issue.params as { error_code?: unknown } | undefined)?.error_code;
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code) && ERROR_CODES[code as ErrorCode].status === 400
    ? (code as ErrorCode)
    : null;
}

/** Validates with a zod schema and turns the first issue into a precise 400 naming the param. */
export function validateParams<S extends z.ZodMiniType>(schema: S, input: unknown, paramPrefix = ''): z.output<S> {
  const outcome = schema.safeParse(input, { reportInput: true });
  if (outcome.success) return outcome.data;
  const issue = outcome.error.issues[0]!;
  const path = [paramPrefix, ...issue.path.map(String)].filter(Boolean).join('.');
  if (issue.code === 'unrecognized_keys') {
    const name = [path, issue.keys[0]].filter(Boolean).join('.');
    const reason = path ? undefined : refusalOf(schema, name);
    throw new ApiError('parameter_unknown', name, reason ?? `Unknown parameter ${name}.`);
  }
  // a required enum reports `invalid_value` when absent, a required scalar `invalid_type`: both are missing
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined) {
    throw new ApiError('parameter_missing', path || null, `Missing required parameter ${path}.`);
  }
  const refined = refinementCode(issue);
  // such refinements write a whole sentence naming the parameters involved
  if (refined) throw new ApiError(refined, path || null, issue.message);
  throw new ApiError(
    'parameter_invalid',
    path || null,
    `Invalid value for ${path || 'the request'}: ${issue.message}.`,
  );
}
