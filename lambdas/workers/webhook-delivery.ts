import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { containerFromEnvironment } from '../composition/container.js';
import type { Services } from '../domain/ports/services.js';
import { attemptDelivery, dispatchEvent } from '../domain/webhooks/delivery.js';
import { processSqsBatch } from './sqs-batch.js';

/** One webhook-queue message: fan an event out, or make a delivery's next attempt. */
export async function consumeWebhookMessage(services: Services, body: string): Promise<void> {
  let message: Partial<Record<'event_id' | 'delivery_id', string>>;
  try {
    message = JSON.parse(body) as Partial<Record<'event_id' | 'delivery_id', string>>;
  } catch {
    // retrying cannot make it readable: drop it (the sweeper re-sends what the table says is due)
    services.log.warn('malformed webhook message dropped', { body: body.slice(0, 200) });
    return;
  }
  if (message.event_id) await dispatchEvent(services, message.event_id);
  else if (message.delivery_id) await attemptDelivery(services, message.delivery_id);
  else services.log.warn('unknown webhook message dropped', { body: body.slice(0, 200) });
}

/**
 * The SQS-triggered delivery Lambda. Records run concurrently, so one hanging receiver (15 s at
 * most) holds up nothing else in the batch; a failure returns only its own record to the queue.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const services = containerFromEnvironment();
  return processSqsBatch(event, services.log, 'webhook message failed', (record) =>
    consumeWebhookMessage(services, record.body),
  );
}
