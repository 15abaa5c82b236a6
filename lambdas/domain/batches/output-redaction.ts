import type { JobRecord } from '../jobs/job.js';
import type { Services } from '../ports/services.js';
import { BATCH_OUTPUT_MEDIA_TYPE } from './batch.js';
import { REDACTION_LEASE_WAIT_MS, withOutputLease } from './output-lease.js';

// Redaction reaches a batch's output file (docs/internals/batches.md, "Redaction and the output file"): the
// line of each redacted job keeps everything but its result, which becomes null.

/**
 * Takes the results of `jobs` (marked redacted already) out of their batches' output files. A
 * batch not completed yet has no file: its completion, under the same lease, reads these jobs
 * redacted. Can run again: a line already null is left, and a file with nothing to take out is not
 * written. How many lines it redacted.
 */
export async function redactBatchOutputs(services: Services, jobs: readonly JobRecord[]): Promise<number> {
  const byBatch = new Map<string, Set<string>>();
  for (const job of jobs)
    if (job.batch_id) byBatch.set(job.batch_id, (byBatch.get(job.batch_id) ?? new Set()).add(job.id));
  let redacted = 0;
  for (const [batchId, jobIds] of byBatch)
    redacted +=
      (await withOutputLease(services, batchId, { ms: REDACTION_LEASE_WAIT_MS }, () =>
        redactOutputLines(services, batchId, jobIds),
      )) ?? 0;
  return redacted;
}

async function redactOutputLines(services: Services, batchId: string, jobIds: ReadonlySet<string>): Promise<number> {
  const batch = await services.batches.get(batchId);
  if (!batch?.output_key) return 0;
  const stored = await services.objects.get(batch.output_key);
  if (!stored) return 0;
  let redacted = 0;
  const lines = new TextDecoder()
    .decode(stored)
    .split('\n')
    .map((text) => {
      if (!text) return text;
      const line = JSON.parse(text) as { job_id?: unknown; result?: unknown };
      if (typeof line.job_id !== 'string' || !jobIds.has(line.job_id) || line.result === null) return text;
      redacted += 1;
      return JSON.stringify({ ...line, result: null });
    });
  if (redacted)
    await services.objects.put(batch.output_key, new TextEncoder().encode(lines.join('\n')), BATCH_OUTPUT_MEDIA_TYPE);
  return redacted;
}
