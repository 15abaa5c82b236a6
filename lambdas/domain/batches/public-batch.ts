import type { EndpointSlug } from '../catalogue/catalogue.js';
import type { BatchStatus } from './batch.js';

/** A batch as the API presents it (docs/internals/batches.md). */
export interface PublicBatch {
  id: string;
  object: 'batch';
  endpoint: EndpointSlug;
  livemode: boolean;
  status: BatchStatus;
  counts: { total: number; queued: number; processing: number; succeeded: number; failed: number; canceled: number };
  credits: { reserved: number; charged: number };
  output_file: { url: string; expires_at: number } | null;
  created: number;
  completed_at: number | null;
}
