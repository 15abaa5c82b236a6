import type { Scenario } from '../catalogue/catalogue.js';
import type { ServiceConfig } from '../ports/services.js';

/** `expire`: the queue timeout a steered job gets, so it expires within 5 s of admission (docs/internals/jobs-and-credits.md). */
export const EXPIRE_SCENARIO_SECONDS = 2;
/** `wait_timeout`: how long after the `wait=true` ceiling the steered job settles. */
export const WAIT_TIMEOUT_SETTLES_AFTER_CEILING_SECONDS = 5;

export interface QueueHold {
  /** seconds the job stays `queued` before its work may start (its work message is delayed that long) */
  delaySeconds: number;
  /** the job's own queue timeout, when the scenario sets one */
  queueTimeoutSeconds: number | null;
}

/**
 * How a test scenario holds a job in the queue. `slow` delays it; `expire` gives it a queue timeout
 * that passes as the delay ends, so the worker that receives it expires it (the sweeper would too);
 * `wait_timeout` keeps it queued until 5 s after the `wait=true` ceiling of the admitting function,
 * so a waiting caller gets `202` with the job unsettled, and the job then succeeds as usual.
 */
export function queueHoldOf(
  scenario: Scenario | null,
  config: Pick<ServiceConfig, 'slowScenarioSeconds' | 'waitCeilingMs'>,
): QueueHold {
  switch (scenario) {
    case 'slow':
      return { delaySeconds: config.slowScenarioSeconds, queueTimeoutSeconds: null };
    case 'expire':
      return { delaySeconds: EXPIRE_SCENARIO_SECONDS, queueTimeoutSeconds: EXPIRE_SCENARIO_SECONDS };
    case 'wait_timeout':
      return {
        delaySeconds: Math.ceil(config.waitCeilingMs / 1000) + WAIT_TIMEOUT_SETTLES_AFTER_CEILING_SECONDS,
        queueTimeoutSeconds: null,
      };
    default:
      return { delaySeconds: 0, queueTimeoutSeconds: null };
  }
}
