import type * as z from 'zod/mini';
import { ApiError } from '../domain/kernel/errors.js';
import { type HttpRequest, mediaType } from './request.js';
import { validateParams } from './validation.js';

/** The body as a JSON object; an empty body is `{}`. */
export function parseJsonObject(request: HttpRequest): Record<string, unknown> {
  if (request.body.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(request.body.toString('utf8'));
  } catch {
    throw new ApiError('invalid_json');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ApiError('invalid_json', null, 'The JSON body must be an object.');
  return value as Record<string, unknown>;
}

/** Parses an optional JSON body and validates it; an empty body validates as `{}`. */
export function parseJsonBody<S extends z.ZodMiniType>(request: HttpRequest, schema: S): z.output<S> {
  if (request.body.length > 0 && mediaType(request) !== 'application/json')
    throw new ApiError('unsupported_media_type', 'Content-Type', 'Send the body as application/json.');
  return validateParams(schema, parseJsonObject(request));
}
