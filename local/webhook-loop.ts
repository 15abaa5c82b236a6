import type { Services } from '../lambdas/domain/ports/services.js';
import { consumeWebhookMessage } from '../lambdas/workers/webhook-delivery.js';
import { startQueueLoop, type QueueLoop, type QueueTransport } from './queue-loop.js';

export type WebhookLoop = QueueLoop;

/** Plays the delivery Lambda's event source mapping; many messages at once, so a hanging receiver holds up no other. */
export function startWebhookLoop(services: Services, queue: QueueTransport, queueUrl: string): WebhookLoop {
  return startQueueLoop(services.log, queue, queueUrl, (body) => consumeWebhookMessage(services, body), { name: 'webhook', maxInFlight: 64, visibilityTimeout: 60 });
}
