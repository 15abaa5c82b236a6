import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type busboy from 'busboy';
import { ApiError } from '../domain/kernel/errors.js';
import type { HttpRequest } from './request.js';

export interface UploadedFile {
  field: string;
  /** as the client sent it, folders included (`exterior/front.jpg`): position routing reads them */
  filename: string | null;
  contentType: string;
  /** usually a view into the request body, not a copy of it */
  bytes: Buffer;
  /** hex SHA-256 of `bytes`, computed while parsing */
  sha256: string;
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

/**
 * A file's bytes without copying them when possible. busboy hands out slices of the buffer it
 * was given (it copies only the few bytes it held back while matching a boundary), so the
 * chunks of a file are usually adjacent views of the request body: one view over them replaces
 * `Buffer.concat`, which would allocate a second copy of every file.
 */
export function joinChunks(chunks: readonly Buffer[], totalBytes: number): Buffer {
  const first = chunks[0];
  if (!first) return Buffer.alloc(0);
  if (chunks.length === 1) return first;
  let end = first.byteOffset + first.byteLength;
  for (const chunk of chunks.slice(1)) {
    if (chunk.buffer !== first.buffer || chunk.byteOffset !== end) return Buffer.concat(chunks as Buffer[], totalBytes);
    end += chunk.byteLength;
  }
  return Buffer.from(first.buffer, first.byteOffset, totalBytes);
}

/** The boundary the body actually uses: the first line when it is a delimiter line (`--<boundary>`). */
function bodyBoundary(body: Buffer): string | null {
  const match = /^--([^\r\n]{1,70})\r\n/.exec(body.subarray(0, 80).toString('latin1'));
  return match ? match[1]! : null;
}

function headerBoundary(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]!) : null;
}

/**
 * Why a body busboy could not finish is broken, as precisely as the bytes allow: a body
 * delimited by another boundary than the header announces, a body cut off inside a file
 * part (the param names that part), or one that ends before its closing delimiter.
 */
function describeBrokenBody(
  body: Buffer,
  contentType: string,
  partsSeen: number,
  openFilePart: string | null,
): ApiError {
  const announced = headerBoundary(contentType);
  const used = bodyBoundary(body);
  if (body.length === 0) return new ApiError('invalid_multipart', null, 'The multipart body is empty.');
  if (partsSeen === 0 && used !== null && used !== announced) {
    return new ApiError(
      'invalid_multipart',
      'Content-Type',
      `The body is delimited by boundary "${used}" but the Content-Type header announces "${announced}".`,
    );
  }
  if (partsSeen === 0 && used === null) {
    return new ApiError(
      'invalid_multipart',
      'Content-Type',
      `The body does not start with the boundary "--${announced}" the Content-Type header announces.`,
    );
  }
  if (openFilePart !== null)
    return new ApiError(
      'invalid_multipart',
      openFilePart,
      `The body ends inside the file part ${openFilePart}: it was truncated.`,
    );
  return new ApiError('invalid_multipart', null, 'The body ends before its closing boundary: it was truncated.');
}

/**
 * A part under a file field's name that is not a file (no filename: `curl -F image=car.jpg`
 * without `@`, or a client that omits it). Without any file that is `missing_input`;
 * either way the message says what to change.
 */
function textPartInFileField(name: string, filesSent: boolean): ApiError {
  const message = `The part ${name} has no filename, so it is read as a text field, not a file: send the file with one (Content-Disposition: form-data; name="${name}"; filename="photo.jpg"; with curl, -F ${name}=@photo.jpg).`;
  return new ApiError(filesSent ? 'parameter_invalid' : 'missing_input', name, message);
}

/** busboy, loaded on the first multipart body: the inference route's definition is read without it. */
async function loadBusboy(): Promise<typeof busboy> {
  return (await import('busboy')).default;
}

/**
 * Parses a multipart body with busboy's streaming parser, enforcing the per-file cap (docs/internals/uploads.md).
 * The body is written to the parser in one piece, so every file comes back as a view into it
 * and its hash is computed on the way through; nothing holds a second copy.
 */
export async function parseMultipart(
  body: Buffer,
  contentType: string,
  limits: MultipartLimits,
): Promise<MultipartBody> {
  const createParser = await loadBusboy();
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = createParser({
        headers: { 'content-type': contentType },
        // keep folders in filenames: `category: auto` routes by position folder
        preservePath: true,
        // browsers and curl send names and filenames as raw UTF-8; busboy's default (latin1) garbles `ü` into `Ã¼`
        defParamCharset: 'utf8',
        // busboy reports `limit` once a file reaches fileSize, so allow one byte more than the cap
        limits: {
          fileSize: limits.maxFileBytes + 1,
          files: limits.maxFiles,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: limits.maxFiles + MAX_FIELDS,
        },
      });
    } catch {
      reject(
        new ApiError(
          'invalid_multipart',
          'Content-Type',
          'The Content-Type header has no multipart boundary parameter.',
        ),
      );
      return;
    }
    const files: UploadedFile[] = [];
    const fields: Record<string, string | string[]> = {};
    let failure: ApiError | null = null;
    let partsSeen = 0;
    let openFilePart: string | null = null;
    let textInFileField: string | null = null;
    const fail = (error: ApiError) => {
      failure ??= error;
    };

    parser.on('file', (name, stream, info) => {
      partsSeen++;
      if (!limits.fileFields.includes(name)) {
        fail(
          new ApiError(
            'parameter_unknown',
            name,
            `Unknown file field ${name}; this endpoint takes ${limits.fileFields.join(' or ') || 'no file'}.`,
          ),
        );
        stream.on('error', () => undefined);
        stream.resume();
        return;
      }
      openFilePart = name;
      const chunks: Buffer[] = [];
      const hash = createHash('sha256');
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        hash.update(chunk);
        size += chunk.byteLength;
      });
      // a truncated body errors the file stream as well as the parser; the parser's handler answers
      stream.on('error', () => undefined);
      stream.on('limit', () =>
        fail(new ApiError('file_too_large', name, `The file in ${name} exceeds ${limits.maxFileBytes} bytes.`)),
      );
      stream.on('end', () => {
        openFilePart = null;
        // an oversized file is refused anyway: do not assemble it
        if (failure?.code === 'file_too_large') return;
        files.push({
          field: name,
          filename: info.filename ?? null,
          contentType: info.mimeType,
          bytes: joinChunks(chunks, size),
          sha256: hash.digest('hex'),
        });
      });
    });
    parser.on('field', (name, value, info) => {
      partsSeen++;
      // busboy reads a part without a filename (and not application/octet-stream) as text
      if (limits.fileFields.includes(name)) {
        textInFileField ??= name;
        return;
      }
      if (info.nameTruncated || info.valueTruncated) {
        fail(new ApiError('parameter_invalid', name, `The field ${name} is longer than ${MAX_FIELD_BYTES} bytes.`));
        return;
      }
      const key = name.endsWith('[]') ? name.slice(0, -2) : name;
      const existing = fields[key];
      if (existing === undefined) fields[key] = name.endsWith('[]') ? [value] : value;
      else fields[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
    });
    parser.on('filesLimit', () =>
      fail(
        new ApiError(
          'too_many_files',
          limits.fileFields[0] ?? null,
          `At most ${limits.maxFiles} file${limits.maxFiles > 1 ? 's are' : ' is'} accepted.`,
        ),
      ),
    );
    parser.on('fieldsLimit', () =>
      fail(new ApiError('invalid_multipart', null, `At most ${MAX_FIELDS} fields are accepted.`)),
    );
    parser.on('partsLimit', () =>
      fail(new ApiError('invalid_multipart', null, 'The multipart body has too many parts.')),
    );
    let broken = false;
    parser.on('error', () => {
      broken = true;
      // a file part that did end emits 'end' on a later tick: let those land before judging
      setImmediate(() => reject(failure ?? describeBrokenBody(body, contentType, partsSeen, openFilePart)));
    });
    parser.on('close', () => {
      if (broken) return;
      if (textInFileField !== null) fail(textPartInFileField(textInFileField, files.length > 0));
      if (failure) reject(failure);
      else resolve({ files, fields });
    });
    parser.end(body);
  });
}

/**
 * The idempotency fingerprint of a multipart body, never its random boundary, so a retry that
 * frames the same parts anew is the same request: each file in order (the inputs' order is the
 * results' order) by field (`images[]` = `images`), filename, type and a hash of its bytes, the
 * text fields by name and value in any order between names (a repeated name keeps its values' order).
 */
export async function multipartFingerprint(request: HttpRequest): Promise<string> {
  const createParser = await loadBusboy();
  return new Promise((resolve) => {
    const files: string[] = [];
    const fields: Array<{ name: string; value: string }> = [];
    const raw = () => resolve(createHash('sha256').update(request.body).digest('hex'));
    let parser: busboy.Busboy;
    try {
      // folders in filenames matter (render.background routes by them), as in parseMultipart
      parser = createParser({
        headers: { 'content-type': request.headers['content-type']! },
        preservePath: true,
        defParamCharset: 'utf8',
      });
    } catch {
      raw();
      return;
    }
    parser.on('file', (name, stream, info) => {
      const hash = createHash('sha256');
      const index = files.push('') - 1;
      stream.on('data', (chunk: Buffer) => hash.update(chunk));
      stream.on('error', () => undefined);
      stream.on(
        'end',
        () =>
          (files[index] =
            `file:${name.replace(/\[\]$/, '')}:${info.filename ?? ''}:${info.mimeType}:${hash.digest('hex')}`),
      );
    });
    parser.on('field', (name, value) => fields.push({ name, value }));
    parser.on('error', raw);
    parser.on('close', () => {
      // a stable sort: values of one name keep their order
      const text = fields
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map((field) => `field:${field.name}=${field.value}`);
      resolve(
        createHash('sha256')
          .update([...files, ...text].join('\n'))
          .digest('hex'),
      );
    });
    Readable.from([request.body]).pipe(parser);
  });
}
