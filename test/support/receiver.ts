import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A webhook receiver double on 127.0.0.1: answers `status` (switchable), optionally after
 * `delayMs` or with a `Retry-After`, and keeps every request it got.
 */
export class Receiver {
  status = 200;
  delayMs = 0;
  retryAfter: string | null = null;
  readonly requests: ReceivedRequest[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const answer = () => {
          response.writeHead(this.status, {
            'Content-Type': 'text/plain',
            ...(this.retryAfter ? { 'Retry-After': this.retryAfter } : {}),
          });
          response.end('ok');
        };
        if (this.delayMs > 0) setTimeout(answer, this.delayMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
    return this;
  }

  /** Requests that carried this event id. */
  deliveriesOf(eventId: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.headers['svc-event-id'] === eventId);
  }

  events(): Array<{
    id: string;
    type: string;
    data: { job: { id: string; status: string; [k: string]: unknown }; stage: { stage: number; name: string } | null };
  }> {
    return this.requests.map((request) => JSON.parse(request.body));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
