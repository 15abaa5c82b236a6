import { afterAll, beforeAll } from 'vitest';
import { defineE2eSuite } from '../../e2e/suite.js';
import { startTestService, type TestService } from '../../support/service.js';

/** The base-URL suite (test/e2e) must pass against the local runtime too. */
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ config: { slowScenarioSeconds: 3 } });
});
afterAll(async () => {
  await svc.stop();
});

defineE2eSuite(() => ({ baseUrl: svc.baseUrl, testKey: svc.org.testKey }));
