import busboy from 'busboy';
import { Readable } from 'node:stream';
import { ApiError } from '../domain/errors.js';

export interface UploadedFile {
  field: string;
  filename: string | null;
  contentType: string;
  bytes: Buffer;
}

export interface MultipartBody {
  files: UploadedFile[];
  /** text fields; a name sent more than once (or with a `[]` suffix) becomes an array */
  fields: Record<string, string | string[]>;
}

export interface MultipartLimits {
  maxFileBytes: number;
  maxFiles: number;
  /** file field names accepted; any other file field is an unknown parameter */
  fileFields: readonly string[];
}

const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 64 * 1024;

/** Parses a multipart body with busboy's streaming parser, enforcing the spec's per-file cap. */
export function parseMultipart(body: Buffer, contentType: string, limits: MultipartLimits): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // busboy reports `limit` once a file reaches fileSize, so allow one byte more than the cap
        limits: { fileSize: limits.maxFileBytes + 1, files: limits.maxFiles, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: limits.maxFiles + MAX_FIELDS },
      });
    } catch {
      reject(new ApiError('invalid_multipart', null, 'The multipart body has no usable boundary.'));
      return;
    }
    const files: UploadedFile[] = [];
    const fields: Record<string, string | string[]> = {};
    let failure: ApiError | null = null;
    const fail = (error: ApiError) => {
      failure ??= error;
    };

    parser.on('file', (name, stream, info) => {
      if (!limits.fileFields.includes(name)) {
        fail(new ApiError('parameter_unknown', name, `Unknown file field ${name}; this endpoint takes ${limits.fileFields.join(' or ') || 'no file'}.`));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new ApiError('file_too_large', name, `The file in ${name} exceeds ${limits.maxFileBytes} bytes.`)));
      stream.on('end', () => files.push({ field: name, filename: info.filename ?? null, contentType: info.mimeType, bytes: Buffer.concat(chunks) }));
    });
    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) {
        fail(new ApiError('parameter_invalid', name, `The field ${name} is longer than ${MAX_FIELD_BYTES} bytes.`));
        return;
      }
      const key = name.endsWith('[]') ? name.slice(0, -2) : name;
      const existing = fields[key];
      if (existing === undefined) fields[key] = name.endsWith('[]') ? [value] : value;
      else fields[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
    });
    parser.on('filesLimit', () => fail(new ApiError('too_many_files', limits.fileFields[0] ?? null, `At most ${limits.maxFiles} files are accepted.`)));
    parser.on('fieldsLimit', () => fail(new ApiError('invalid_multipart', null, `At most ${MAX_FIELDS} fields are accepted.`)));
    parser.on('partsLimit', () => fail(new ApiError('invalid_multipart', null, 'The multipart body has too many parts.')));
    parser.on('error', (error: Error) => reject(failure ?? new ApiError('invalid_multipart', null, `The multipart body could not be parsed: ${error.message}.`)));
    parser.on('close', () => (failure ? reject(failure) : resolve({ files, fields })));
    Readable.from([body]).pipe(parser);
  });
}
