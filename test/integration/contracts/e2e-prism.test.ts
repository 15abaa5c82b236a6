import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { freePort } from '../../../local/stand-ins/free-port.js';
import { buildOpenApiDocument } from '../../../site/openapi.js';
import { defineE2eSuite } from '../../e2e/suite.js';
import { eventually } from '../../support/http.js';
import { sharedTestService } from '../../support/service.js';

/**
 * The black-box suite through Prism's validating proxy: every answer the service gives is checked
 * against the OpenAPI document, and any response outside it fails this file.
 */
let prism: ChildProcess;
let proxyUrl: string;
let output = '';

const svc = sharedTestService({ config: { slowScenarioSeconds: 3 } });
beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'prism-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(svc.baseUrl)));
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  prism = spawn(
    join('node_modules', '.bin', 'prism'),
    ['proxy', file, svc.baseUrl, '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prism.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  prism.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(async () => (output.includes('Prism is listening') ? true : null), 30_000, 100);
});

afterAll(async () => {
  const exited = new Promise((resolve) => prism.once('exit', resolve));
  prism.kill('SIGTERM');
  await exited;
  // request violations are the suite's deliberate bad input; a response violation is ours
  const violations = output.split('\n').filter((line) => /Violation: response/.test(line));
  expect(violations, violations.join('\n')).toEqual([]);
});

defineE2eSuite(() => ({ baseUrl: proxyUrl, testKey: svc.org.testKey }));
