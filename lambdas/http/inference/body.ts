import type { EndpointDefinition } from '../../domain/catalogue/catalogue.js';
import { acceptsMediaType } from '../../domain/jobs/uploads.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { parseJsonObject } from '../json-body.js';
import { parseMultipart, type UploadedFile } from '../multipart.js';
import { type HttpRequest, mediaType } from '../request.js';

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
  if (single !== undefined && many !== undefined) throw new ApiError('parameter_invalid', 'input_refs', 'Send either input_ref or input_refs, not both.');
  if (single !== undefined) {
    if (typeof single !== 'string' || single === '') throw new ApiError('parameter_invalid', 'input_ref', 'input_ref must be an upload_ref string.');
    return [single];
  }
  if (many !== undefined) {
    if (endpoint.maxAssets === 1) throw new ApiError('parameter_unknown', 'input_refs', `${endpoint.slug} takes one input: use input_ref.`);
    if (!Array.isArray(many) || many.some((ref) => typeof ref !== 'string' || ref === ''))
      throw new ApiError('parameter_invalid', 'input_refs', 'input_refs must be an array of upload_ref strings.');
    return many as string[];
  }
  return [];
}

export async function parseInferenceBody(request: HttpRequest, endpoint: EndpointDefinition, maxFileBytes: number): Promise<InferenceBody> {
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
    for (const name of ['input_ref', 'input_refs']) if (name in fields) throw new ApiError('parameter_invalid', name, `${name} travels in a JSON body, not in multipart fields.`);
    return { encoding: 'multipart', files, inputRefs: [], inputRefsParam: 'input_ref', params: fields };
  }
  if (type === 'application/json' || (type === '' && request.body.length === 0)) {
    const body = parseJsonObject(request);
    const inputRefsParam = body.input_refs !== undefined ? 'input_refs' : 'input_ref';
    const inputRefs = takeInputRefs(endpoint, body);
    return { encoding: 'json', files: [], inputRefs, inputRefsParam, params: body };
  }
  throw new ApiError('unsupported_media_type', 'Content-Type', `Unsupported Content-Type ${type || '(none)'}; send application/json or multipart/form-data.`);
}

/** Checks that the call carries its input, in a count the endpoint accepts. */
export function requireInputs(endpoint: EndpointDefinition, body: InferenceBody): void {
  if (!endpoint.fileField) {
    if (body.files.length > 0 || body.inputRefs.length > 0)
      throw new ApiError('parameter_unknown', body.inputRefs.length ? 'input_ref' : endpoint.slug, `${endpoint.slug} takes parameters only, no file input.`);
    return;
  }
  const multiAsset = endpoint.maxAssets > 1;
  const param = body.encoding === 'multipart' && !endpoint.requiresJsonEncoding ? endpoint.fileField : multiAsset ? 'input_refs' : 'input_ref';
  const count = body.files.length + body.inputRefs.length;
  if (count === 0) {
    const how = endpoint.requiresJsonEncoding ? `a JSON ${param}` : `a multipart file field ${endpoint.fileField} or a JSON ${multiAsset ? 'input_refs' : 'input_ref'}`;
    throw new ApiError('missing_input', param, `No input was supplied: send ${how}.`);
  }
  if (count < endpoint.minAssets) throw new ApiError('parameter_invalid', param, `${endpoint.slug} needs at least ${endpoint.minAssets} assets.`);
  if (count > endpoint.maxAssets) throw new ApiError('too_many_files', param, `${endpoint.slug} accepts at most ${endpoint.maxAssets} asset${endpoint.maxAssets > 1 ? 's' : ''}.`);
  for (const file of body.files) {
    // curl and many clients label unknown files application/octet-stream: accept that, refuse a clear mismatch
    if (file.contentType !== 'application/octet-stream' && !acceptsMediaType(endpoint, file.contentType)) {
      throw new ApiError('parameter_invalid', file.field, `${file.filename ?? 'A file'} is ${file.contentType}; ${endpoint.slug} takes ${endpoint.inputKind} input.`);
    }
    if (file.bytes.length === 0) throw new ApiError('parameter_invalid', file.field, `${file.filename ?? 'A file'} is empty.`);
  }
}
