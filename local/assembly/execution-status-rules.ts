import type { Log } from '../../lambdas/domain/ports/services.js';
import type { StackResource } from './cloud-assembly.js';
import type { Deployment } from './deployment.js';
import { checkPattern, matchesPattern } from './event-pattern.js';
import type { LambdaHost } from './lambda-host.js';

export interface ExecutionStatusRules {
  /** hands a "Step Functions Execution Status Change" to the Lambda targets of every rule whose pattern it matches */
  deliver(event: { source: string; detail: Record<string, unknown> }): void;
  /** settles once every delivery under way has ended */
  drain(): Promise<void>;
}

function props(deployment: Deployment, target: StackResource): Record<string, unknown> {
  return deployment.resolve(target.resource.Properties ?? {}, target.stack) as Record<string, unknown>;
}

/**
 * The template's EventBridge rules on Step Functions' own events (`source: aws.states`), played
 * locally: the local engine reports each execution's end, and the rules whose pattern matches
 * invoke their Lambda targets with it, as EventBridge does (the batch stack's FailedRuns rule).
 */
export function executionStatusRules(
  deployment: Deployment,
  lambdas: () => LambdaHost,
  log: Log,
): ExecutionStatusRules {
  const rules = deployment.assembly.resources('AWS::Events::Rule').flatMap((rule) => {
    const p = props(deployment, rule);
    const pattern = p.EventPattern as { source?: unknown } | undefined;
    if (!pattern || p.State === 'DISABLED' || !Array.isArray(pattern.source) || !pattern.source.includes('aws.states'))
      return [];
    checkPattern(pattern, rule.logicalId);
    const targets = ((p.Targets as Array<{ Arn: string }> | undefined) ?? []).map((target) => target.Arn);
    return [{ id: rule.logicalId, pattern: pattern as Record<string, unknown>, targets }];
  });
  const underWay = new Set<Promise<void>>();
  return {
    deliver(event) {
      for (const rule of rules) {
        if (!matchesPattern(rule.pattern, event)) continue;
        for (const arn of rule.targets) {
          if (!lambdas().functionOf(arn)) continue;
          const delivery = lambdas()
            .invoke(arn, event)
            .then((outcome) => {
              if (!outcome.ok) log.warn('execution status rule target failed', { rule: rule.id, ...outcome.error });
            })
            .finally(() => underWay.delete(delivery));
          underWay.add(delivery);
        }
      }
    },
    async drain() {
      await Promise.allSettled([...underWay]);
    },
  };
}
