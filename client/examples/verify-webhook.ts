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
        const event = verifyWebhook(
          Buffer.concat(chunks),
          request.headers['svc-signature'] as string | undefined,
          secret,
        );
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

if (process.argv[1] === import.meta.filename) {
  // `node verify-webhook.js <port> <signing secret>`: prints one line per new, verified event
  const { createServer } = await import('node:http');
  const [port = '4242', secret = process.env.WEBHOOK_SECRET ?? ''] = process.argv.slice(2);
  createServer(
    webhookHandler(secret, (event) =>
      console.log(
        JSON.stringify({
          id: event.id,
          type: event.type,
          ...('job' in event.data ? { job: event.data.job.id } : { batch: event.data.batch.id }),
        }),
      ),
    ),
  ).listen(Number(port), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
}
