import type { DataAccess } from '../define.js';

/**
 * Canceling: the cancel transaction releases the reservation, no work is enqueued. Canceling a
 * batch's last job completes the batch: its output file (reading its input file for lines never
 * admitted) and `batch.completed` (docs/internals/batches.md). Canceling a job or a batch touches the same.
 */
export const CANCEL_ACCESS: DataAccess = {
  table: 'readwrite',
  readObjects: ['outputs', 'uploads'],
  writeObjects: ['outputs'],
  enqueueWebhooks: true,
};

/**
 * What deleting a job's data takes: the job, its stage jobs and events in the table; listing its
 * folders and deleting its objects (multipart inputs, consumed uploads, produced files), existence
 * coming from the listing; and rewriting its batch's output file without its result (read and
 * written under `outputs/`, docs/internals/batches.md).
 */
export const REDACTION_ACCESS: DataAccess = {
  table: 'readwrite',
  listObjects: true,
  readObjects: ['outputs'],
  writeObjects: ['outputs'],
  deleteObjects: ['inputs', 'uploads', 'outputs'],
};
