import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/sequencer.js';

/**
 * Projects, by what their tests need (docs/internals/testing.md):
 * - unit: nothing but Node: no Java, no build, no network (`npm run test:unit`, seconds);
 * - cdk: synthesises the stack in memory, CPU only;
 * - e2e: a running service named by AIS_BASE_URL (skipped without it);
 * - integration: DynamoDB Local, the S3/SQS stand-in and the built dashboard, started once per run
 *   by the project's global setup, or `npm start` processes of their own.
 * `npm run test:integration` runs all but unit; `npm test` runs all.
 */
const ISOLATED = ['test/integration/local/assembly/event-sources.test.ts'];
/** unit files that replace a module (`vi.mock`) or set process-wide state at import: each in a fresh module graph */
const UNIT_ISOLATED = ['test/unit/workers/reference-plane.test.ts', 'test/unit/adapters/runtime-secrets.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // a condition a browser or a worker reaches in milliseconds alone can take seconds on a shared 2-core runner
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // most integration files wait (on DynamoDB Local, timers, child processes) more than they compute:
    // four at a time keep two cores busy (docs/internals/testing.md has the measurements)
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      // unit files share their worker's modules too (zod schemas, the container: loading them afresh per
      // file was most of the project's CPU, 111 s against 48 s); the few that mock modules are isolated
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: [...UNIT_ISOLATED], isolate: false },
      },
      { extends: true, test: { name: 'unit-isolated', include: [...UNIT_ISOLATED], isolate: true } },
      // the files of cdk and integration share their worker's modules (aws-cdk-lib, the runtime: seconds of
      // CPU to load) instead of loading them afresh per file; a file restores any process-wide state it changes
      { extends: true, test: { name: 'cdk', include: ['test/cdk/**/*.test.ts'], isolate: false } },
      // the black-box suite: skipped unless AIS_BASE_URL names a running service (test/e2e/base-url.test.ts)
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...ISOLATED],
          isolate: false,
          globalSetup: ['test/support/stand-ins-setup.ts'],
        },
      },
      // a file whose stream poller has missed its record after other files ran in the same worker
      // (about one full run in two, never alone): it runs in a worker of its own
      {
        extends: true,
        test: {
          name: 'integration-isolated',
          include: [...ISOLATED],
          isolate: true,
          globalSetup: ['test/support/stand-ins-setup.ts'],
        },
      },
    ],
  },
});
