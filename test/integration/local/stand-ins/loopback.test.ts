import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { sharedTestService } from '../../../support/service.js';

/** The local addresses listening on `port`, read from the kernel's socket tables. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A') continue;
      const [address, portHex] = local.split(':');
      if (portHex === hexPort) found.push(address!);
    }
  }
  return found;
}

const IPV4_LOOPBACK = '0100007F';
const IPV4_MAPPED_LOOPBACK = '0000000000000000FFFF00000100007F';

function portOf(endpoint: string): number {
  return Number(new URL(endpoint).port);
}

const svc = sharedTestService();

describe('every local listener is on 127.0.0.1 only', () => {
  it.each([
    ['DynamoDB Local', () => portOf(inject('standIns').dynamodb)],
    ['the S3/SQS stand-in', () => portOf(inject('standIns').s3)],
    ['the API', () => portOf(svc.baseUrl)],
  ])('%s', (_name, port) => {
    const addresses = listeningAddresses(port());
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect([IPV4_LOOPBACK, IPV4_MAPPED_LOOPBACK]).toContain(address);
  });
});
