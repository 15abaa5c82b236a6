import { randomBase58 } from '../kernel/ids.js';
import type { Services } from '../ports/services.js';

// The batch's output lease (docs/internals/batches.md, "Redaction and the output file"): whoever writes a
// batch's output file holds it, from reading what goes in to the write (and, for the completion,
// the commit that publishes the file). A redaction marks its job first and takes the lease after,
// so whichever of the two holds it second sees the other's work: a completion reads the job
// redacted, or a redaction finds the file published and takes the result out. Two redactions of
// one batch rewrite the file one after the other, each from the other's file.

/** How long a holder may take: far above one rewrite of a 10,000-line file, so a live holder never loses it. */
export const OUTPUT_LEASE_MS = 120_000;
/** How long a redaction waits for the lease before giving up (under the redact routes' 28 s). */
export const REDACTION_LEASE_WAIT_MS = 20_000;
/** How long a completion waits (under the completion callback's 10 s): one held longer leaves it to the sweeper. */
export const COMPLETION_LEASE_WAIT_MS = 5_000;
const FIRST_RETRY_MS = 25;
const LAST_RETRY_MS = 100;

/** Thrown when the lease stayed held for the whole wait: nothing was written, the caller tries again later. */
export class OutputLeaseBusy extends Error {
  override readonly name = 'OutputLeaseBusy';
}

/**
 * Runs `work` holding the batch's output lease, waiting up to `wait.ms` for it; `undefined`
 * without running it when `wait.stillNeeded`, asked while waiting, says the work was done meanwhile.
 */
export async function withOutputLease<T>(
  services: Services,
  batchId: string,
  wait: { ms: number; stillNeeded?: () => Promise<boolean> },
  work: () => Promise<T>,
): Promise<T | undefined> {
  const token = randomBase58(16);
  const giveUpAt = Date.now() + wait.ms;
  for (let retryMs = FIRST_RETRY_MS; ; retryMs = Math.min(retryMs * 2, LAST_RETRY_MS)) {
    const now = services.clock.nowMs();
    if (await services.batches.takeOutputLease(batchId, token, now + OUTPUT_LEASE_MS, now)) break;
    if (Date.now() + retryMs > giveUpAt)
      throw new OutputLeaseBusy(`the output lease of batch ${batchId} stayed held for ${wait.ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, retryMs));
    if (wait.stillNeeded && !(await wait.stillNeeded())) return undefined;
  }
  try {
    return await work();
  } finally {
    await services.batches.releaseOutputLease(batchId, token);
  }
}
