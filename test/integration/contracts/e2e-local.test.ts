import { defineE2eSuite } from '../../e2e/suite.js';
import { sharedTestService } from '../../support/service.js';

/** The base-URL suite (test/e2e) must pass against the local runtime too. */
const svc = sharedTestService({ config: { slowScenarioSeconds: 3 } });

defineE2eSuite(() => ({ baseUrl: svc.baseUrl, testKey: svc.org.testKey }));
