import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { containerFromEnvironment, refreshRuntimeSecrets } from '../composition/container.js';
import type { Services } from '../domain/ports/services.js';
import { logFailure } from '../domain/kernel/failure-log.js';
import { processJob, type ProcessResult, type TestBackend } from '../domain/jobs/processing.js';
import type { WorkMessage } from '../domain/ports/jobs.js';
import { sandboxBackend } from '../sandbox/backend.js';

export function parseWorkMessage(body: string): WorkMessage | null {
  try {
    const value = JSON.parse(body) as Partial<WorkMessage>;
    return typeof value.job_id === 'string' ? { job_id: value.job_id } : null;
  } catch {
    return null;
  }
}

/** Processes one message; throws to leave it on the queue for redelivery. */
export async function consumeWorkMessage(services: Services, backend: TestBackend, body: string): Promise<ProcessResult | 'malformed'> {
  const message = parseWorkMessage(body);
  if (!message) {
    services.log.warn('dropping malformed work message', { body: body.slice(0, 200) });
    return 'malformed';
  }
  return processJob(services, backend, message.job_id);
}

let backend: TestBackend | undefined;

/** SQS event source: failed records are reported individually so the rest of the batch is not redelivered. */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const services = containerFromEnvironment();
  // live jobs are submitted signed with the callback secret, read at run time
  await refreshRuntimeSecrets(services);
  backend ??= sandboxBackend(services);
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        await consumeWorkMessage(services, backend!, record.body);
      } catch (error) {
        logFailure(services.log, 'work message failed', error, { message_id: record.messageId });
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
}
