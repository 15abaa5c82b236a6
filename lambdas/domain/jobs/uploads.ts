import type { Principal } from '../access/principal.js';
import { BATCH_INPUT_MEDIA_TYPE } from '../batches/batch.js';
import type { EndpointDefinition, InputKind } from '../catalogue/catalogue.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { timeOrderedId } from '../kernel/ids.js';
import { modeOf } from '../kernel/mode.js';
import type { UploadRecord } from '../ports/jobs.js';
import type { Services } from '../ports/services.js';
import type { WriteOp } from '../ports/transactions.js';
import type { InputAsset } from './job.js';

/** Media types each input kind accepts, for uploads and multipart files alike. */
export const ACCEPTED_MEDIA_TYPES: Record<Exclude<InputKind, 'json'>, readonly string[]> = {
  image: ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'],
  images: ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'],
  document: ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'application/pdf'],
  audio: ['audio/wav', 'audio/x-wav', 'audio/mpeg', 'audio/mp4', 'audio/aac', 'audio/ogg', 'audio/flac', 'audio/webm'],
  video: ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska'],
};
/** every input media type, and a batch's JSONL input file (docs/internals/batches.md) */
export const ALL_UPLOAD_MEDIA_TYPES = [...new Set(Object.values(ACCEPTED_MEDIA_TYPES).flat()), BATCH_INPUT_MEDIA_TYPE];

/**
 * What an `input_ref` may look like. Looser than the refs the service makes (`upl_` + 22 base58), so
 * a well-formed ref that names no upload is `upload_not_found`, as before; anything else, or longer,
 * is `parameter_invalid`.
 */
export const UPLOAD_REF_SHAPE = /^upl_[A-Za-z0-9]{1,64}$/;

export interface NewUpload {
  content_type: string;
  size_bytes: number;
  filename?: string | undefined;
}

export interface PresignedUpload {
  object: 'upload';
  upload_ref: string;
  url: string;
  method: 'PUT';
  headers: { 'Content-Type': string };
  expires_at: number;
}

export function uploadObjectKey(orgId: string, ref: string): string {
  return `${uploadFolder(orgId)}${ref}`;
}

/** The folder of an organisation's uploads; references are time-ordered, so its keys list oldest first. */
export function uploadFolder(orgId: string): string {
  return `uploads/${orgId}/`;
}

/** Records the reference and signs a PUT that only accepts the declared type and size. */
export async function createUpload(
  services: Services,
  principal: Principal,
  request: NewUpload,
): Promise<PresignedUpload> {
  const now = epochSeconds(services.clock);
  // time-ordered: retention lists an organisation's uploads oldest first and stops at its cutoff
  const ref = timeOrderedId('upl', services.clock.nowMs());
  const upload: UploadRecord = {
    upload_ref: ref,
    org_id: principal.orgId,
    livemode: principal.livemode,
    content_type: request.content_type,
    size_bytes: request.size_bytes,
    filename: request.filename ?? null,
    object_key: uploadObjectKey(principal.orgId, ref),
    created: now,
    expires_at: now + services.config.uploadRefTtlSeconds,
    consumed_by: null,
  };
  await services.uploads.put(upload);
  const url = await services.objects.signedPutUrl(
    upload.object_key,
    upload.content_type,
    upload.size_bytes,
    services.config.uploadUrlTtlSeconds,
  );
  return {
    object: 'upload',
    upload_ref: ref,
    url,
    method: 'PUT',
    headers: { 'Content-Type': upload.content_type },
    expires_at: now + services.config.uploadUrlTtlSeconds,
  };
}

export function acceptsMediaType(endpoint: EndpointDefinition, contentType: string): boolean {
  if (endpoint.inputKind === 'json') return false;
  return ACCEPTED_MEDIA_TYPES[endpoint.inputKind].includes(contentType.split(';')[0]!.trim().toLowerCase());
}

export interface AcceptedInputs {
  test: (contentType: string) => boolean;
  /** what the call takes, in words, for refusals */
  description: string;
}

const INSPECTION_MEDIA = [...ACCEPTED_MEDIA_TYPES.video, ...ACCEPTED_MEDIA_TYPES.images];

/** The media types a call of `endpoint` takes as inputs; an inspection mixes a video with photos. */
export function acceptedInputsOf(endpoint: EndpointDefinition): AcceptedInputs {
  if (endpoint.metering === 'per_inspection') {
    return {
      test: (contentType) => INSPECTION_MEDIA.includes(contentType.split(';')[0]!.trim().toLowerCase()),
      description: `one walk-around video (${ACCEPTED_MEDIA_TYPES.video.join(', ')}) and photos (${ACCEPTED_MEDIA_TYPES.images.join(', ')})`,
    };
  }
  return {
    test: (contentType) => acceptsMediaType(endpoint, contentType),
    description: endpoint.inputKind === 'json' ? 'no file' : ACCEPTED_MEDIA_TYPES[endpoint.inputKind].join(', '),
  };
}

/**
 * The upload a call names, if the caller may use it: its organisation's, in its mode, unexpired and
 * not consumed. Jobs and batches refuse the same way, in the same words.
 */
export function usableUpload(
  upload: UploadRecord | null,
  ref: string,
  principal: Principal,
  param: string,
  now: number,
): UploadRecord {
  if (
    !upload ||
    upload.org_id !== principal.orgId ||
    upload.livemode !== principal.livemode ||
    upload.expires_at <= now
  )
    throw new ApiError(
      'upload_not_found',
      param,
      `No upload ${ref} exists for this organisation in ${modeOf(principal.livemode)} mode.`,
    );
  if (upload.consumed_by !== null)
    throw new ApiError('upload_already_consumed', param, `Upload ${ref} was already used by ${upload.consumed_by}.`);
  return upload;
}

/** A reference that was made but whose bytes never arrived. */
export function nothingUploaded(ref: string, param: string): ApiError {
  return new ApiError('upload_not_found', param, `Nothing was uploaded to ${ref} yet: PUT the bytes to its url first.`);
}

export interface ResolvedUploads {
  inputs: InputAsset[];
  /** consumption joins the admission transaction, so a refused call consumes nothing */
  consumeOps: (jobId: string) => WriteOp[];
}

/**
 * Checks each reference belongs to the caller's organisation and mode, is unexpired, was
 * really uploaded, and holds a type the endpoint takes. Already-consumed references fail
 * here early and, against races, again inside the admission transaction.
 */
export async function resolveUploads(
  services: Services,
  principal: Principal,
  endpoint: EndpointDefinition,
  refs: readonly string[],
  /** the field the client used; errors name it */
  param: 'input_ref' | 'input_refs' = refs.length > 1 || endpoint.maxAssets > 1 ? 'input_refs' : 'input_ref',
  /** which media types the call takes */
  accepts: AcceptedInputs = acceptedInputsOf(endpoint),
): Promise<ResolvedUploads> {
  if (new Set(refs).size !== refs.length)
    throw new ApiError('parameter_invalid', param, 'The same upload_ref appears more than once.');
  const now = epochSeconds(services.clock);
  const inputs = await Promise.all(
    refs.map(async (ref, index): Promise<InputAsset> => {
      const upload = usableUpload(await services.uploads.get(ref), ref, principal, param, now);
      const stored = await services.objects.head(upload.object_key);
      if (!stored) throw nothingUploaded(ref, param);
      // S3 enforces the signed Content-Length; this also catches a store that does not
      if (stored.sizeBytes !== upload.size_bytes)
        throw new ApiError(
          'parameter_invalid',
          param,
          `Upload ${ref} holds ${stored.sizeBytes} bytes, not the ${upload.size_bytes} declared.`,
        );
      const contentType = stored.contentType ?? upload.content_type;
      if (!accepts.test(contentType)) {
        throw new ApiError(
          'parameter_invalid',
          param,
          `Upload ${ref} is ${contentType}; ${endpoint.slug} takes ${accepts.description}.`,
        );
      }
      return {
        index,
        filename: upload.filename,
        content_type: contentType,
        size_bytes: stored.sizeBytes,
        // read in full by the worker, off the request path (`withInputHashes`)
        sha256: null,
        object_key: upload.object_key,
      };
    }),
  );
  return { inputs, consumeOps: (jobId) => refs.map((uploadRef) => ({ kind: 'consumeUpload', uploadRef, jobId })) };
}
