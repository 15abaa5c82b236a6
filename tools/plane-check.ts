import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ENDPOINT_SLUGS, type EndpointSlug } from '../lambdas/domain/catalogue/catalogue.js';
import { CREDENTIALS_FILENAME, LOCAL_DIR, namedRuntimeHome, runningStandIns } from '../local/runtime-homes.js';
import { checkPlane } from './lib/plane-check.js';

/** `npm run plane:check -- --url <plane>`: checks an inference plane against its interface (docs/internals/inference-plane.md); exit code 0 when every check passes. */

/** The shared secret: --secret, INFERENCE_CALLBACK_SECRET, or the local runtime's (.local/credentials.json). */
function defaultSecret(): string | undefined {
  if (process.env.INFERENCE_CALLBACK_SECRET) return process.env.INFERENCE_CALLBACK_SECRET;
  const file = join(LOCAL_DIR, CREDENTIALS_FILENAME);
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { inference_callback_secret?: string }).inference_callback_secret
    : undefined;
}

/** The bucket the functions of the local runtime .local/credentials.json names use, when it runs. */
function defaultBucket(): string | undefined {
  const home = namedRuntimeHome();
  return (home && runningStandIns(home)?.bucket) || undefined;
}

const USAGE = `usage: npm run plane:check -- --url <plane submission URL> [--secret <shared secret>] [--endpoint <slug>] [--bucket <name>]
                            [--callback-url <URL the plane reaches this checker at> --port <n>] [--timeout <seconds>]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      secret: { type: 'string' },
      endpoint: { type: 'string' },
      bucket: { type: 'string' },
      'callback-url': { type: 'string' },
      port: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help || !values.url) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 1);
  }
  const secret = values.secret ?? defaultSecret();
  if (!secret) throw new Error('no shared secret: pass --secret or set INFERENCE_CALLBACK_SECRET');
  if (values.endpoint && !(ENDPOINT_SLUGS as readonly string[]).includes(values.endpoint))
    throw new Error(`--endpoint must be one of ${ENDPOINT_SLUGS.join(', ')}`);
  const bucket = values.bucket ?? defaultBucket();
  console.log(`plane:check ${values.url}`);
  const results = await checkPlane({
    url: values.url,
    secret,
    ...(values.endpoint ? { endpoint: values.endpoint as EndpointSlug } : {}),
    ...(bucket ? { bucket } : {}),
    ...(values['callback-url'] ? { callbackUrl: values['callback-url'] } : {}),
    ...(values.port ? { port: Number(values.port) } : {}),
    ...(values.timeout ? { timeoutSeconds: Number(values.timeout) } : {}),
    onResult: (result) => console.log(`  ${result.passed ? 'PASS' : 'FAIL'}  ${result.name}: ${result.detail}`),
  });
  const failed = results.filter((result) => !result.passed).length;
  console.log(
    failed ? `FAIL: ${failed} of ${results.length} checks failed` : `PASS: all ${results.length} checks passed`,
  );
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(`plane:check: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
