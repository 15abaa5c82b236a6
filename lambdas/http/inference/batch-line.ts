import { MAX_CUSTOM_ID_LENGTH } from '../../domain/batches/batch.js';
import type { BatchLineCall, LineReader } from '../../domain/batches/driver.js';
import { customIdOf } from '../../domain/batches/input-file.js';
import type { EndpointDefinition } from '../../domain/catalogue/catalogue.js';
import { ApiError } from '../../domain/kernel/errors.js';
import type { Services } from '../../domain/ports/services.js';
import type { HttpRequest } from '../request.js';
import { parseCall } from './call.js';

// One line of a batch's input file read as the JSON call body it stands for (docs/internals/batches.md):
// `{ custom_id?, input_ref? | input_refs?, params? }`, checked by the very code that reads a call.

const LINE_FIELDS = new Set(['custom_id', 'input_ref', 'input_refs', 'params']);

/** The reader a batch's driver uses, with the service's file limit. */
export function batchLineReader(services: Services): LineReader {
  return (text, endpoint) => readBatchLine(text, endpoint, services.config.maxFileBytes);
}

export async function readBatchLine(
  text: string,
  endpoint: EndpointDefinition,
  maxFileBytes: number,
): Promise<BatchLineCall> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { customId: null, request: new ApiError('invalid_json', null, 'This line is not JSON.') };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { customId: null, request: new ApiError('invalid_json', null, 'A line must be a JSON object.') };
  const line = value as Record<string, unknown>;
  return { customId: customIdOf(text), request: await lineRequest(line, endpoint, maxFileBytes) };
}

async function lineRequest(
  line: Record<string, unknown>,
  endpoint: EndpointDefinition,
  maxFileBytes: number,
): Promise<BatchLineCall['request']> {
  const unknown = Object.keys(line).find((name) => !LINE_FIELDS.has(name));
  if (unknown !== undefined)
    return new ApiError(
      'parameter_unknown',
      unknown,
      `Unknown field ${unknown}; a line holds custom_id, input_ref or input_refs, and params.`,
    );
  if (
    line.custom_id !== undefined &&
    (typeof line.custom_id !== 'string' || line.custom_id.length > MAX_CUSTOM_ID_LENGTH)
  ) {
    return new ApiError(
      'parameter_invalid',
      'custom_id',
      `custom_id must be a string of at most ${MAX_CUSTOM_ID_LENGTH} characters.`,
    );
  }
  const params = line.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return new ApiError('parameter_invalid', 'params', 'params must be a JSON object.');
  const body = {
    ...params,
    ...(line.input_ref !== undefined ? { input_ref: line.input_ref } : {}),
    ...(line.input_refs !== undefined ? { input_refs: line.input_refs } : {}),
  };
  const request: HttpRequest = {
    requestId: '',
    method: 'POST',
    path: `/v1/${endpoint.slug}`,
    headers: { 'content-type': 'application/json' },
    query: {},
    pathParameters: {},
    body: Buffer.from(JSON.stringify(body)),
  };
  const call = await parseCall(request, endpoint, maxFileBytes);
  if (!(call instanceof ApiError) && call.kind !== 'job')
    return new ApiError('parameter_invalid', 'endpoint', `${endpoint.slug} cannot run in a batch.`);
  return call;
}
