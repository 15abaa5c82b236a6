import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../local/stand-ins/free-port.js';

/**
 * Resident memory of the local runtime (the process `npm start` runs) before, during and after
 * concurrent unauthenticated uploads: with authentication on the headers and early refusal it
 * must not buffer what it refuses.
 */
const REPO = resolve(import.meta.dirname, '..');
const MB = 1024 * 1024;

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024);
}

/** Streams `bytes` of zeros without holding them; resolves with the status the server answered. */
function unauthenticatedUpload(port: number, bytes: number): Promise<number> {
  return new Promise((done) => {
    const chunk = Buffer.alloc(MB);
    const outgoing = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/plate.read',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': bytes },
    });
    outgoing.on('response', (incoming) => {
      incoming.resume();
      done(incoming.statusCode ?? 0);
      outgoing.destroy();
    });
    outgoing.on('error', () => done(0));
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !outgoing.destroyed) {
        sent += MB;
        if (!outgoing.write(chunk)) return void outgoing.once('drain', pump);
      }
      if (!outgoing.destroyed) outgoing.end();
    };
    pump();
  });
}

async function startLocalRuntime(port: number): Promise<ChildProcess> {
  // a scratch directory keeps the developer's own .local/ out of it
  const cwd = mkdtempSync(join(tmpdir(), 'ais-bench-'));
  for (const name of readdirSync(REPO)) if (!name.startsWith('.')) symlinkSync(join(REPO, name), join(cwd, name));
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    cwd,
    env: { ...process.env, PORT: String(port), S3_PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.once('exit', () => rmSync(cwd, { recursive: true, force: true }));
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  while (!output.includes('listening on')) {
    if (child.exitCode !== null) throw new Error(`the runtime exited: ${output}`);
    await delay(100);
  }
  return child;
}

export async function measureUploadMemory(uploads = 10, bytes = 100 * MB): Promise<string> {
  const port = await freePort();
  const runtime = await startLocalRuntime(port);
  try {
    await delay(1000);
    const before = residentMb(runtime.pid!);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, residentMb(runtime.pid!));
    }, 20);
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: uploads }, () => unauthenticatedUpload(port, bytes)));
    const seconds = ((Date.now() - started) / 1000).toFixed(2);
    await delay(1000);
    clearInterval(sampler);
    const after = residentMb(runtime.pid!);
    return [
      `${uploads} concurrent unauthenticated uploads of ${bytes / MB} MB: answers ${[...new Set(statuses)].join(', ')} within ${seconds} s`,
      `resident memory of the runtime: before ${before} MB · peak ${peak} MB · after ${after} MB (peak − before = ${peak - before} MB)`,
    ].join('\n');
  } finally {
    runtime.kill('SIGTERM');
    await new Promise((done) => runtime.once('exit', done));
  }
}
