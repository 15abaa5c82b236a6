import { createServer } from 'node:net';

// Ports are drawn below Linux's ephemeral range (32768–60999): an outgoing connection takes its local
// port from that range, so a port found free there can be taken by any client socket in the moment
// between this check and the child process binding it. Below it, only another explicit bind competes.
const LOWEST = 20_000;
const HIGHEST = 32_767;
const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A loopback port nothing listens on, never one this process handed out before. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${HIGHEST}`);
}
