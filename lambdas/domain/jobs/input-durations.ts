import type { EndpointDefinition } from '../catalogue/catalogue.js';
import type { Services } from '../ports/services.js';
import type { IncomingFile } from './inputs.js';
import type { InputAsset } from './job.js';
import { bytesReader, mediaDurationSeconds, type RangeReader } from './media-duration.js';

/**
 * A per-second call's inputs with how long each runs, measured from its header: a multipart file
 * from the bytes in hand, an upload by ranged reads of the stored object (a few small GETs, never the
 * whole clip). The reservation, the quote and the charge are made from it (docs/internals/jobs-and-credits.md,
 * "Per-second metering"). Other endpoints' inputs are returned as they are.
 */
export async function withDurations(
  services: Pick<Services, 'objects'>,
  endpoint: Pick<EndpointDefinition, 'metering'>,
  inputs: readonly InputAsset[],
  files: readonly IncomingFile[] = [],
): Promise<InputAsset[]> {
  if (endpoint.metering !== 'per_second') return [...inputs];
  return Promise.all(
    inputs.map(async (input) => {
      const sent = files[input.index];
      const read: RangeReader = sent
        ? bytesReader(sent.bytes)
        : async (offset, length) =>
            (await services.objects.getRange(input.object_key, offset, length)) ?? new Uint8Array(0);
      return { ...input, duration_seconds: await mediaDurationSeconds(input.content_type, input.size_bytes, read) };
    }),
  );
}
