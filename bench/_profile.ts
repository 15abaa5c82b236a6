import '../lambdas/local/quiet-warnings.js';
import { startRuntime } from '../lambdas/local/runtime.js';
import { startDynamoDbLocal } from '../lambdas/local/stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from '../lambdas/local/stand-ins/object-and-queue-server.js';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { samplePng } from './admission-floor.js';
const times: Record<string, number[]> = {};
function timeCalls(service: string, client: any) {
  client.middlewareStack.add((next: any, context: any) => async (args: any) => {
    const t0 = performance.now();
    try { return await next(args); } finally { (times[`${service}.${context.commandName}`] ??= []).push(performance.now() - t0); }
  }, { step: 'initialize', name: `t-${service}` });
}
const ddb = await startDynamoDbLocal({ dataDir: '/tmp/prof-ddb-' + Date.now() });
const oq = await startObjectAndQueueServer();
const runtime = await startRuntime({ port: 0, standIns: { dynamodb: ddb.endpoint, s3: oq.endpoint, sqs: oq.endpoint }, workerPaused: process.env.PAUSED === '1' });
timeCalls('ddb', runtime.services.clients.dynamodb); timeCalls('s3', await runtime.services.clients.s3()); timeCalls('sqs', await runtime.services.clients.sqs());
const org = await createOrganization(runtime.services, { name: 'p', plan: 'enterprise' });
const lat: number[] = [];
for (let i = 0; i < 400; i++) {
  if (i === 100) { for (const k of Object.keys(times)) delete times[k]; }
  const form = new FormData(); form.append('image', new Blob([samplePng(i)], { type: 'image/png' }), 'c.png');
  const t0 = performance.now();
  const r = await fetch(`${runtime.baseUrl}/v1/plate.read`, { method: 'POST', headers: { Authorization: `Bearer ${org.testKey}` }, body: form });
  await r.text(); if (r.status !== 202) throw new Error(String(r.status));
  if (i >= 100) lat.push(performance.now() - t0);
}
lat.sort((a, b) => a - b);
console.log('p50', lat[150].toFixed(1));
for (const [k, v] of Object.entries(times)) { v.sort((a, b) => a - b); console.log(k.padEnd(40), 'n/300', (v.length / 300).toFixed(2), 'p50', v[Math.floor(v.length / 2)]!.toFixed(2)); }
await runtime.stop(); await oq.stop(); await ddb.stop();
