import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicIpAddress } from '../domain/kernel/public-urls.js';
import type { WebhookRequest, WebhookSender } from '../domain/ports/webhooks.js';
import type { SendOutcome } from '../domain/webhooks/records.js';
import { parseRetryAfter } from '../domain/webhooks/retry-policy.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
/** Only the status matters; a receiver's body is read (and dropped) up to this much. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Resolves the name once, refuses it if any address is not public, and hands the socket exactly
 * the checked address: no second lookup can rebind it (DNS rebinding).
 */
function publicOnlyLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find(
        (address) => !isPublicIpAddress(address.address) && !(allowLoopback && LOOPBACK_HOSTS.has(hostname)),
      );
      if (refused)
        return callback(
          Object.assign(new Error(`${hostname} resolves to the non-public address ${refused.address}`), {
            code: 'ENOTPUBLIC',
          }),
          '',
          0,
        );
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** One POST over node:http(s): no redirect followed (3xx is a failure), bounded time and response size. */
export class HttpWebhookSender implements WebhookSender {
  send(request: WebhookRequest): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...outcome, durationMs: elapsed() });
      };
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return finish({ statusCode: null, error: 'invalid destination URL', retryAfterSeconds: null });
      }
      // an address literal is never looked up: check it here
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal) && !isPublicIpAddress(literal) && !(request.allowLoopback && LOOPBACK_HOSTS.has(literal))) {
        return finish({
          statusCode: null,
          error: `ENOTPUBLIC: ${literal} is not a public address`,
          retryAfterSeconds: null,
        });
      }
      if (url.protocol !== 'https:' && !(request.allowLoopback && LOOPBACK_HOSTS.has(literal))) {
        return finish({ statusCode: null, error: 'the destination must use https', retryAfterSeconds: null });
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(url, {
        method: 'POST',
        headers: { ...request.headers, 'Content-Length': Buffer.byteLength(request.body) },
        lookup: publicOnlyLookup(request.allowLoopback),
        agent: false,
      });
      timer = setTimeout(() => {
        finish({ statusCode: null, error: `timed out after ${request.timeoutMs} ms`, retryAfterSeconds: null });
        outgoing.destroy();
      }, request.timeoutMs);
      outgoing.on('response', (incoming) => {
        let received = 0;
        incoming.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) incoming.destroy();
        });
        const statusCode = incoming.statusCode ?? null;
        const retryAfter = parseRetryAfter(incoming.headers['retry-after'], Date.now());
        const done = () => finish({ statusCode, error: null, retryAfterSeconds: retryAfter });
        incoming.on('end', done);
        incoming.on('close', done);
        incoming.on('error', done);
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        finish({
          statusCode: null,
          error: error.code ? `${error.code}: ${error.message}` : error.message,
          retryAfterSeconds: null,
        }),
      );
      outgoing.end(request.body);
    });
  }
}
