import { describe } from 'vitest';
import { defineE2eSuite } from './suite.js';

/**
 * Against a deployed service: `AIS_BASE_URL=https://… AIS_TEST_KEY=chk_test_… npx vitest run test/e2e`.
 * Skipped when AIS_BASE_URL is not set; `test/integration/contracts/e2e-local.test.ts` runs the same suite
 * against the local runtime on every `npm test`.
 */
const baseUrl = process.env.AIS_BASE_URL;
describe.skipIf(!baseUrl)('deployed service at AIS_BASE_URL', () => {
  defineE2eSuite(() => ({ baseUrl: baseUrl!.replace(/\/$/, ''), testKey: process.env.AIS_TEST_KEY ?? '' }));
});
