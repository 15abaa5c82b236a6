import { epochSeconds } from '../kernel/clock.js';
import type { Services } from '../ports/services.js';
import { type BatchRecord, queuedCount } from './batch.js';
import type { PublicBatch } from './public-batch.js';

/** A batch as the API presents it (docs/internals/batches.md). */

export async function presentBatch(services: Services, batch: BatchRecord): Promise<PublicBatch> {
  const ttl = services.config.signedUrlTtlSeconds;
  return {
    id: batch.id,
    object: 'batch',
    endpoint: batch.endpoint,
    livemode: batch.livemode,
    status: batch.status,
    counts: {
      total: batch.total,
      queued: queuedCount(batch),
      processing: batch.processing,
      succeeded: batch.succeeded,
      failed: batch.failed,
      canceled: batch.canceled,
    },
    credits: { reserved: batch.reserved, charged: batch.charged },
    output_file: batch.output_key
      ? {
          url: await services.objects.signedGetUrl(batch.output_key, ttl),
          expires_at: epochSeconds(services.clock) + ttl,
        }
      : null,
    created: batch.created,
    completed_at: batch.completed_at,
  };
}
