import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyWebhook, type WebhookEvent } from '../src/index.js';

/**
 * A receiver's request handler (`http.createServer(webhookHandler(secret, onEvent))`): it verifies
 * every delivery with the endpoint's secret before trusting it, and deduplicates on the event id.
 */
export function webhookHandler(secret: string, onEvent: (event: WebhookEvent) => void) {
  const seen = new Set<string>();
  return (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const event = verifyWebhook(Buffer.concat(chunks), request.headers['svc-signature'] as string | undefined, secret);
        // deliveries are at least once: deduplicate on the event id
        if (!seen.has(event.id)) {
          seen.add(event.id);
          onEvent(event);
        }
        response.writeHead(200).end();
      } catch {
        response.writeHead(400).end();
      }
    });
  };
}
