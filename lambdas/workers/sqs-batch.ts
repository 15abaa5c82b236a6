import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logFailure } from '../domain/kernel/failure-log.js';
import type { Log } from '../domain/ports/services.js';

/**
 * An SQS event source's answer, through Powertools' batch processing: the records run
 * concurrently (a slow one holds up no other), and a record whose handler throws is logged and
 * reported in `batchItemFailures`, so only it returns to the queue. A batch that failed whole is
 * answered the same way rather than thrown, so every failure is logged with its message id.
 * A handler that drops a message (malformed, unknown) returns normally: dropped is not failed.
 */
export function processSqsBatch(
  event: SQSEvent,
  log: Log,
  failure: string,
  consume: (record: SQSRecord) => Promise<unknown>,
): Promise<SQSBatchResponse> {
  const recordHandler = async (record: SQSRecord) => {
    try {
      await consume(record);
    } catch (error) {
      logFailure(log, failure, error, { message_id: record.messageId });
      throw error;
    }
  };
  return processPartialResponse(event, recordHandler, new BatchProcessor(EventType.SQS), {
    throwOnFullBatchFailure: false,
  });
}
