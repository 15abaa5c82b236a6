import { requireFamily } from '../access/api-keys.js';
import type { Member } from '../access/member.js';
import { requireSameOrganization } from '../access/members.js';
import type { Principal } from '../access/principal.js';
import { CATALOGUE, ENDPOINT_SLUGS, type EndpointSlug } from '../catalogue/catalogue.js';
import { requireAvailable } from '../catalogue/plane-declaration.js';
import { nothingUploaded, usableUpload } from '../jobs/uploads.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { BATCH_ID_PATTERN, epochSecondsOfId, timeOrderedId } from '../kernel/ids.js';
import type { Page } from '../kernel/page.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused } from '../ports/transactions.js';
import { BATCH_INPUT_MEDIA_TYPE, type BatchRecord, MAX_BATCH_INPUT_BYTES, ZERO_COUNTERS } from './batch.js';
import { jsonlLines } from './input-file.js';

// Creating a batch and finding one (docs/internals/batches.md). Creating checks everything about the file
// that can be checked before any line is admitted; the lines themselves are admitted by the driver.

export interface NewBatch {
  endpoint: string;
  input_file: string;
}

/**
 * Checks the endpoint and the input file (the caller's, unexpired, uploaded, `application/jsonl`,
 * 1 to 10,000 lines of UTF-8) and creates the batch, consuming the upload in the same transaction.
 * A refusal writes nothing.
 */
export async function createBatch(services: Services, principal: Principal, request: NewBatch): Promise<BatchRecord> {
  const endpoint = batchEndpoint(request.endpoint);
  requireFamily(principal, endpoint.family);
  requireAvailable(endpoint, principal.livemode, services.config.planeEndpoints, 'endpoint');
  const upload = usableUpload(
    await services.uploads.get(request.input_file),
    request.input_file,
    principal,
    'input_file',
    epochSeconds(services.clock),
  );
  if (upload.content_type.split(';')[0]!.trim().toLowerCase() !== BATCH_INPUT_MEDIA_TYPE) {
    throw new ApiError(
      'parameter_invalid',
      'input_file',
      `Upload ${upload.upload_ref} is ${upload.content_type}; a batch's input file is ${BATCH_INPUT_MEDIA_TYPE}.`,
    );
  }
  if (upload.size_bytes > MAX_BATCH_INPUT_BYTES)
    throw new ApiError(
      'parameter_invalid',
      'input_file',
      `A batch's input file is at most ${MAX_BATCH_INPUT_BYTES} bytes.`,
    );
  const bytes = await services.objects.get(upload.object_key);
  if (!bytes) throw nothingUploaded(upload.upload_ref, 'input_file');
  const lines = jsonlLines(bytes);
  if (lines instanceof ApiError) throw lines;
  const id = timeOrderedId('bat', services.clock.nowMs());
  const batch: BatchRecord = {
    id,
    org_id: principal.orgId,
    livemode: principal.livemode,
    api_key_id: principal.apiKeyId,
    secret_hash: principal.secretHash ?? '',
    endpoint: endpoint.slug,
    input_file: upload.upload_ref,
    input_object_key: upload.object_key,
    status: 'validating',
    total: lines.length,
    ...ZERO_COUNTERS,
    cursor: 0,
    stopped_at: null,
    cancel_requested: false,
    lease_token: null,
    // the creating process starts the driver at once; the sweeper looks only once this has passed
    lease_until: epochSecondsOfId(id) + services.config.batchLeaseSeconds,
    created: epochSecondsOfId(id),
    completed_at: null,
    output_key: null,
  };
  try {
    await services.uow.commit([
      { kind: 'createBatch', batch },
      { kind: 'consumeUpload', uploadRef: upload.upload_ref, jobId: id },
    ]);
  } catch (error) {
    if (error instanceof TransactionRefused && error.refusedOps.includes('consumeUpload')) {
      throw new ApiError(
        'upload_already_consumed',
        'input_file',
        `Upload ${upload.upload_ref} was used by another job or batch meanwhile.`,
      );
    }
    throw error;
  }
  return batch;
}

/** An endpoint a batch can run: any but the eight-stage inspection bundle. */
function batchEndpoint(slug: string) {
  if (!(ENDPOINT_SLUGS as readonly string[]).includes(slug))
    throw new ApiError('parameter_invalid', 'endpoint', `Unknown endpoint ${slug}; see GET /v1/endpoints.`);
  const endpoint = CATALOGUE[slug as EndpointSlug];
  if (endpoint.slug === 'inspections')
    throw new ApiError(
      'parameter_invalid',
      'endpoint',
      'Inspections cannot run in a batch; create each with POST /v1/inspections.',
    );
  return endpoint;
}

/** A batch is visible to keys of its organisation and mode; another organisation's is a `403`, as a job's is. */
export async function findVisibleBatch(services: Services, principal: Principal, id: string): Promise<BatchRecord> {
  if (!BATCH_ID_PATTERN.test(id)) throw new ApiError('batch_not_found', 'id', `No such batch: ${id}.`);
  const batch = await services.batches.get(id);
  if (batch && batch.org_id !== principal.orgId)
    throw new ApiError('scope_not_granted', null, 'This batch belongs to another organisation.');
  if (!batch || batch.livemode !== principal.livemode)
    throw new ApiError('batch_not_found', 'id', `No such batch: ${id}.`);
  return batch;
}

/** A batch of the member's organisation, either mode (the dashboard). */
export async function findOrganizationBatch(services: Services, member: Member, id: string): Promise<BatchRecord> {
  const batch = BATCH_ID_PATTERN.test(id) ? await services.batches.get(id) : null;
  if (!batch) throw new ApiError('batch_not_found', 'id', `No such batch: ${id}.`);
  requireSameOrganization(member, batch.org_id, 'batch');
  return batch;
}

/** The organisation's batches newest first, in one mode or both (ids are time-ordered, so two pages merge by id). */
export async function listOrganizationBatches(
  services: Services,
  query: { orgId: string; livemode?: boolean; limit: number; startingAfter?: string },
): Promise<Page<BatchRecord>> {
  const modes = query.livemode === undefined ? [true, false] : [query.livemode];
  const { livemode: _livemode, ...rest } = query;
  const pages = await Promise.all(modes.map((livemode) => services.batches.list({ ...rest, livemode })));
  const merged = pages.flatMap((page) => page.items).sort((a, b) => (a.id < b.id ? 1 : -1));
  return {
    items: merged.slice(0, query.limit),
    hasMore: merged.length > query.limit || pages.some((page) => page.hasMore),
  };
}
