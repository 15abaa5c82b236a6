import type { EndpointDefinition } from '../../domain/catalogue/catalogue.js';
import { type InspectionStageName, isInspectionStageName } from '../../domain/catalogue/stage-names.js';
import { initialStages } from '../../domain/inspections/plan.js';
import type { InspectionRequest, JobRequest } from '../../domain/jobs/admission.js';
import { DEADLINE_HEADER, MAX_DEADLINE_SECONDS, MIN_DEADLINE_SECONDS } from '../../domain/jobs/deadline-timer.js';
import type { QuoteRequest } from '../../domain/jobs/quotes.js';
import { acceptsMediaType, UPLOAD_REF_SHAPE } from '../../domain/jobs/uploads.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { inspectionParamsSchema, loadInferenceParamsSchema } from '../../schemas/inference-params.js';
import { DescribedInputsSchema } from '../../schemas/quotes.js';
import { parseJsonObject } from '../json-body.js';
import { parseMultipart, type UploadedFile } from '../multipart.js';
import { type HttpRequest, mediaType } from '../request.js';
import { validateParams } from '../validation.js';

// An inference call as the HTTP layer reads it: its query, its body in either encoding, and what
// it asks the admission for (domain/jobs/admission.ts).

/**
 * The call's query and body as the admission takes them. A refusal of either is handed over as it
 * is: the admission answers it in its turn, after the checks of the caller (key, scopes, scenario,
 * rate limit, Idempotency-Key), so a revoked key is still a `401` and a bad body is stored for replay.
 */
export async function parseCall(
  request: HttpRequest,
  endpoint: EndpointDefinition,
  maxFileBytes: number,
): Promise<JobRequest | InspectionRequest | ApiError> {
  try {
    const deadlineSeconds = parseDeadline(request);
    const wait = parseWait(request, endpoint);
    // the eight-stage bundle has its own body (input_refs + stages.exclude)
    if (endpoint.slug === 'inspections')
      return { ...(await parseInspection(request, endpoint, maxFileBytes)), deadlineSeconds };
    const body = await parseInferenceBody(request, endpoint, maxFileBytes);
    requireInputs(endpoint, body);
    const params = validateParams(await loadInferenceParamsSchema(endpoint.slug), body.params);
    return {
      kind: 'job',
      wait,
      params,
      files: body.files,
      inputRefs: body.inputRefs,
      inputRefsParam: body.inputRefsParam,
      deadlineSeconds,
    };
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/** `Svc-Deadline` as sent: whole seconds, 1 to 3600, digits only (no sign, fraction or exponent). */
export const DEADLINE_PATTERN = /^[1-9][0-9]{0,3}$/;

/** `Svc-Deadline`: absent is no deadline; anything but whole seconds from 1 to 3600 is refused. */
export function parseDeadline(request: Pick<HttpRequest, 'headers'>): number | null {
  const value = request.headers[DEADLINE_HEADER.toLowerCase()];
  if (value === undefined) return null;
  const seconds = DEADLINE_PATTERN.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!(seconds >= MIN_DEADLINE_SECONDS && seconds <= MAX_DEADLINE_SECONDS)) {
    throw new ApiError(
      'parameter_invalid',
      DEADLINE_HEADER,
      `${DEADLINE_HEADER} must be a whole number of seconds from ${MIN_DEADLINE_SECONDS} to ${MAX_DEADLINE_SECONDS}.`,
    );
  }
  return seconds;
}

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

/** `wait` is the only query parameter an inference call takes. */
function parseWait(request: HttpRequest, endpoint: EndpointDefinition): boolean {
  for (const name of Object.keys(request.query)) {
    if (name !== 'wait') throw new ApiError('parameter_unknown', name, `Unknown query parameter ${name}.`);
  }
  const values = request.query.wait;
  if (!values) return false;
  const wait = values.length === 1 ? BOOLEAN_WORDS[values[0]!.toLowerCase()] : undefined;
  if (wait === undefined) throw new ApiError('parameter_invalid', 'wait', 'wait must be true or false.');
  if (wait && !endpoint.acceptsWait)
    throw new ApiError(
      'wait_not_supported',
      'wait',
      `${endpoint.slug} runs too long for wait=true; poll GET /v1/jobs/{id} or use webhooks.`,
    );
  return wait;
}

const UPLOAD_REF_DESCRIPTION = 'upl_ and up to 64 letters and digits, from POST /v1/uploads';

/** The request's inputs and parameters, whichever encoding carried them. */
export interface InferenceBody {
  encoding: 'multipart' | 'json';
  files: UploadedFile[];
  /** upload references from a JSON body, in input order */
  inputRefs: string[];
  /** the JSON field that carried them */
  inputRefsParam: 'input_ref' | 'input_refs';
  params: Record<string, unknown>;
}

function fileFieldsOf(endpoint: EndpointDefinition): string[] {
  if (!endpoint.fileField) return [];
  return endpoint.fileField === 'images' ? ['images', 'images[]'] : [endpoint.fileField];
}

function takeInputRefs(endpoint: EndpointDefinition, body: Record<string, unknown>): string[] {
  const { input_ref: single, input_refs: many } = body;
  delete body.input_ref;
  delete body.input_refs;
  if (single !== undefined && many !== undefined)
    throw new ApiError('parameter_invalid', 'input_refs', 'Send either input_ref or input_refs, not both.');
  if (single !== undefined) {
    if (typeof single !== 'string' || !UPLOAD_REF_SHAPE.test(single))
      throw new ApiError(
        'parameter_invalid',
        'input_ref',
        `input_ref must be an upload_ref (${UPLOAD_REF_DESCRIPTION}).`,
      );
    return [single];
  }
  if (many !== undefined) {
    if (endpoint.maxAssets === 1)
      throw new ApiError('parameter_unknown', 'input_refs', `${endpoint.slug} takes one input: use input_ref.`);
    if (!Array.isArray(many) || many.some((ref) => typeof ref !== 'string' || !UPLOAD_REF_SHAPE.test(ref)))
      throw new ApiError(
        'parameter_invalid',
        'input_refs',
        `input_refs must be an array of upload_refs (${UPLOAD_REF_DESCRIPTION}).`,
      );
    return many as string[];
  }
  return [];
}

export async function parseInferenceBody(
  request: HttpRequest,
  endpoint: EndpointDefinition,
  maxFileBytes: number,
): Promise<InferenceBody> {
  const type = mediaType(request);
  if (type === 'multipart/form-data') {
    // refused before parsing: a video or batch endpoint names no multipart fields, so parsing would
    // blame the first file field as unknown instead of saying which encoding the endpoint takes
    if (endpoint.requiresJsonEncoding) {
      throw new ApiError(
        'json_encoding_required',
        endpoint.fileField,
        `${endpoint.slug} takes its input only as JSON ${endpoint.maxAssets > 1 ? 'input_refs' : 'input_ref'} from POST /v1/uploads.`,
      );
    }
    const { files, fields } = await parseMultipart(request.body, request.headers['content-type']!, {
      maxFileBytes,
      maxFiles: Math.max(endpoint.maxAssets, 1),
      fileFields: fileFieldsOf(endpoint),
    });
    for (const name of ['input_ref', 'input_refs'])
      if (name in fields)
        throw new ApiError('parameter_invalid', name, `${name} travels in a JSON body, not in multipart fields.`);
    return { encoding: 'multipart', files, inputRefs: [], inputRefsParam: 'input_ref', params: fields };
  }
  if (isJson(request)) return jsonBody(endpoint, parseJsonObject(request));
  throw new ApiError(
    'unsupported_media_type',
    'Content-Type',
    `Unsupported Content-Type ${type || '(none)'}; send application/json or multipart/form-data.`,
  );
}

function isJson(request: HttpRequest): boolean {
  const type = mediaType(request);
  return type === 'application/json' || (type === '' && request.body.length === 0);
}

function jsonBody(endpoint: EndpointDefinition, body: Record<string, unknown>): InferenceBody {
  const inputRefsParam = body.input_refs !== undefined ? 'input_refs' : 'input_ref';
  const inputRefs = takeInputRefs(endpoint, body);
  return { encoding: 'json', files: [], inputRefs, inputRefsParam, params: body };
}

/** Checks that the call carries its input, in a count the endpoint accepts; a quote may describe it instead (`described`). */
function requireInputs(endpoint: EndpointDefinition, body: InferenceBody, described = 0): void {
  if (!endpoint.fileField) {
    if (body.files.length > 0 || body.inputRefs.length > 0 || described > 0)
      throw new ApiError(
        'parameter_unknown',
        described ? 'inputs' : body.inputRefs.length ? 'input_ref' : endpoint.slug,
        `${endpoint.slug} takes parameters only, no file input.`,
      );
    return;
  }
  const multiAsset = endpoint.maxAssets > 1;
  const param = described
    ? 'inputs'
    : body.encoding === 'multipart' && !endpoint.requiresJsonEncoding
      ? endpoint.fileField
      : multiAsset
        ? 'input_refs'
        : 'input_ref';
  const count = body.files.length + body.inputRefs.length + described;
  if (count === 0) {
    const how = endpoint.requiresJsonEncoding
      ? `a JSON ${param}`
      : `a multipart file field ${endpoint.fileField} or a JSON ${multiAsset ? 'input_refs' : 'input_ref'}`;
    throw new ApiError('missing_input', param, `No input was supplied: send ${how}.`);
  }
  if (count < endpoint.minAssets)
    throw new ApiError('parameter_invalid', param, `${endpoint.slug} needs at least ${endpoint.minAssets} assets.`);
  if (count > endpoint.maxAssets)
    throw new ApiError(
      'too_many_files',
      param,
      `${endpoint.slug} accepts at most ${endpoint.maxAssets} asset${endpoint.maxAssets > 1 ? 's' : ''}.`,
    );
  for (const file of body.files) {
    // curl and many clients label unknown files application/octet-stream: accept that, refuse a clear mismatch
    if (file.contentType !== 'application/octet-stream' && !acceptsMediaType(endpoint, file.contentType)) {
      throw new ApiError(
        'parameter_invalid',
        file.field,
        `${file.filename ?? 'A file'} is ${file.contentType}; ${endpoint.slug} takes ${endpoint.inputKind} input.`,
      );
    }
    if (file.bytes.length === 0)
      throw new ApiError('parameter_invalid', file.field, `${file.filename ?? 'A file'} is empty.`);
  }
}

/** An unknown stage name is named as `stages.exclude`, not as the array element the schema would point at. */
function checkStageNames(params: Record<string, unknown>): void {
  const exclude = (params.stages as { exclude?: unknown } | undefined)?.exclude;
  if (!Array.isArray(exclude)) return;
  const unknown = exclude.find((name) => !isInspectionStageName(name));
  if (unknown !== undefined)
    throw new ApiError(
      'parameter_invalid',
      'stages.exclude',
      `Unknown stage ${JSON.stringify(unknown)} in stages.exclude; stages are ${initialStages([])
        .map((s) => s.name)
        .join(', ')}.`,
    );
}

/** `POST /v1/inspections`: JSON `{ input_refs, stages?: { exclude } }`. */
async function parseInspection(
  request: HttpRequest,
  endpoint: EndpointDefinition,
  maxFileBytes: number,
): Promise<InspectionRequest> {
  const body = await parseInferenceBody(request, endpoint, maxFileBytes);
  return { kind: 'inspection', wait: false, inputRefs: body.inputRefs, exclude: inspectionExclusions(body, 0) };
}

/** An inspection's excluded stages; it needs its inputs, as references or (a quote's) `described` files. */
function inspectionExclusions(body: InferenceBody, described: number): InspectionStageName[] {
  checkStageNames(body.params);
  const params = validateParams(inspectionParamsSchema, body.params);
  const exclude: InspectionStageName[] = [...new Set(params.stages?.exclude ?? [])];
  if (exclude.length === initialStages([]).length)
    throw new ApiError('parameter_invalid', 'stages.exclude', 'At least one stage must run.');
  if (body.inputRefs.length === 0 && described === 0)
    throw new ApiError(
      'missing_input',
      'input_refs',
      'No input was supplied: send JSON input_refs with one walk-around video and 1 to 30 photos.',
    );
  return exclude;
}

/**
 * `POST /v1/{slug}/quote`: the call's JSON body, checked as the call checks it, where `inputs` may
 * describe the files instead of naming uploads. Multipart is refused: a quote never carries the bytes.
 */
export async function parseQuote(request: HttpRequest, endpoint: EndpointDefinition): Promise<QuoteRequest | ApiError> {
  try {
    parseWait(request, endpoint);
    if (!isJson(request))
      throw new ApiError(
        'unsupported_media_type',
        'Content-Type',
        'A quote takes a JSON body: describe the files in inputs, or name uploads in input_ref / input_refs.',
      );
    const raw = parseJsonObject(request);
    const described = raw.inputs === undefined ? null : validateParams(DescribedInputsSchema, raw.inputs, 'inputs');
    delete raw.inputs;
    if (described && (raw.input_ref !== undefined || raw.input_refs !== undefined))
      throw new ApiError('parameter_invalid', 'inputs', 'Send either inputs or input_ref / input_refs, not both.');
    const body = jsonBody(endpoint, raw);
    const count = described?.length ?? 0;
    const call = { inputRefs: body.inputRefs, inputRefsParam: body.inputRefsParam, described };
    if (endpoint.slug === 'inspections')
      return { kind: 'inspection', ...call, exclude: inspectionExclusions(body, count) };
    requireInputs(endpoint, body, count);
    validateParams(await loadInferenceParamsSchema(endpoint.slug), body.params);
    return { kind: 'job', ...call, exclude: [] };
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}
