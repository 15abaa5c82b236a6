import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../site/openapi.js';

const run = promisify(execFile);

describe('the OpenAPI document under @redocly/cli lint', () => {
  it('passes the recommended rules with every tag declared, with no warning', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApiDocument('http://127.0.0.1:3000')));
    const { stdout, stderr } = await run(
      join('node_modules', '.bin', 'redocly'),
      ['lint', file, '--config', 'redocly.yaml', '--format', 'summary'],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${error.stdout}\n${error.stderr}`);
    });
    const output = `${stdout}\n${stderr}`;
    expect(output).toContain('Your API description is valid');
    // the summary lists each rule that fired as `warning <rule>: <count>` or `error <rule>: <count>`
    expect(output).not.toMatch(/^(warning|error) [\w-]+: \d+/m);
  }, 60_000);
});
