import { startFauxqs } from 'fauxqs';

export interface ObjectAndQueueServer {
  endpoint: string;
  stop(): Promise<void>;
}

/** fauxqs, in-process: S3 (path-style) and SQS on one loopback port. */
export async function startObjectAndQueueServer(port = 0): Promise<ObjectAndQueueServer> {
  const server = await startFauxqs({ port, host: '127.0.0.1', logger: false });
  return { endpoint: `http://127.0.0.1:${server.port}`, stop: () => server.stop() };
}
