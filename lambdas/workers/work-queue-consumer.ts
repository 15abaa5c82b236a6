import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { containerFromEnvironment, refreshRuntimeSecrets } from '../composition/container.js';
import { type DeadlineTimerOutcome, onDeadlineTimer } from '../domain/jobs/deadline-expiry.js';
import { type ProcessResult, processJob, type TestBackend } from '../domain/jobs/processing.js';
import type { WorkMessage } from '../domain/ports/jobs.js';
import type { Services } from '../domain/ports/services.js';
import { sandboxBackend } from '../sandbox/backend.js';
import { processSqsBatch } from './sqs-batch.js';

export function parseWorkMessage(body: string): WorkMessage | null {
  try {
    const value = JSON.parse(body) as Partial<WorkMessage>;
    if (typeof value.job_id !== 'string') return null;
    return value.timer === 'deadline' ? { job_id: value.job_id, timer: 'deadline' } : { job_id: value.job_id };
  } catch {
    return null;
  }
}

/** Processes one message; throws to leave it on the queue for redelivery. */
export async function consumeWorkMessage(
  services: Services,
  backend: TestBackend,
  body: string,
): Promise<ProcessResult | DeadlineTimerOutcome | 'malformed'> {
  const message = parseWorkMessage(body);
  if (!message) {
    services.log.warn('dropping malformed work message', { body: body.slice(0, 200) });
    return 'malformed';
  }
  // a Svc-Deadline timer (docs/internals/deadlines.md) rides the same queue: it expires the job, or waits on
  if (message.timer === 'deadline') return onDeadlineTimer(services, message.job_id);
  return processJob(services, backend, message.job_id);
}

let backend: TestBackend | undefined;

/** SQS event source: failed records are reported individually so the rest of the batch is not redelivered. */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const services = containerFromEnvironment();
  // live jobs are submitted signed with the callback secret, read at run time
  await refreshRuntimeSecrets(services);
  const sandbox = (backend ??= sandboxBackend(services));
  return processSqsBatch(event, services.log, 'work message failed', (record) =>
    consumeWorkMessage(services, sandbox, record.body),
  );
}
