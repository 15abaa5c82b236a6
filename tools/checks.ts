import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { TYPE_CHECKER } from './type-checker.js';

/**
 * `npm run checks`: the type checks and the linters `npm test` runs before the tests, all at once.
 * Side by side they take about as long as the slowest of them, not the sum (docs/internals/testing.md):
 * on two cores about 20 s, most of it knip's and TypeScript 7's (tools/type-checker.ts; 5.9 took 72 s
 * in CI). Each one's output is printed whole when it ends, so that two never interleave; the exit code
 * is 1 when any of them failed.
 */
const BIN = resolve(import.meta.dirname, '../node_modules/.bin');

const CHECKS: ReadonlyArray<{ name: string; command: string; args: string[] }> = [
  { name: 'tsc', command: TYPE_CHECKER, args: ['--noEmit'] },
  { name: 'tsc (dashboard)', command: TYPE_CHECKER, args: ['--noEmit', '-p', 'dashboard'] },
  { name: 'biome', command: 'biome', args: ['check', '.'] },
  { name: 'knip', command: 'knip', args: [] },
];

const running = new Set<ChildProcess>();

function run(check: (typeof CHECKS)[number]): Promise<boolean> {
  const started = Date.now();
  const child = spawn(resolve(BIN, check.command), check.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((done) => {
    child.once('error', (error) => {
      console.log(`${check.name}: could not start: ${error.message}`);
      done(false);
    });
    child.once('close', (code, signal) => {
      running.delete(child);
      const text = Buffer.concat(output).toString('utf8').trimEnd();
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      console.log(`${check.name}: ${ok ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s`);
      if (text && !ok) console.log(text);
      done(ok);
    });
  });
}

// a check still running when this process is told to stop ends with it
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => {
    for (const child of running) child.kill('SIGTERM');
    process.exit(128 + constants.signals[signal]);
  });

const results = await Promise.all(CHECKS.map(run));
process.exitCode = results.every(Boolean) ? 0 : 1;
