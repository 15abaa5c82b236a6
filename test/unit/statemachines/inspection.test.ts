import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { INSPECTION_STAGE_NAMES } from '../../../lambdas/domain/catalogue/inspection-stages.js';
import { StageActionSchema } from '../../../lambdas/schemas/inspection-stage.js';
import { INSPECTION_ASL_PATH, inspectionDefinitionJson, substitute } from '../../../statemachines/inspection.js';

const validate = createRequire(import.meta.url)('asl-validator') as (definition: unknown) => {
  isValid: boolean;
  errorsText: (separator?: string) => string;
};

// what CDK deploys and the local runtime runs: the definition built from the stage table
const raw = inspectionDefinitionJson();
if (process.env.WRITE_INSPECTION_ASL === '1') writeFileSync(INSPECTION_ASL_PATH, raw);
const definition = JSON.parse(
  substitute(raw, { StageFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:inspection-stage' }),
) as {
  StartAt: string;
  TimeoutSeconds?: number;
  States: Record<string, Record<string, any>>;
};
const states = Object.entries(definition.States);
const tasks = states.filter(([, state]) => state.Type === 'Task');

/** Every state reachable from StartAt through Next, Default, Choices and Catch. */
function reachable(): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const state = definition.States[name]!;
    for (const next of [
      state.Next,
      state.Default,
      ...(state.Choices ?? []).map((c: { Next: string }) => c.Next),
      ...(state.Catch ?? []).map((c: { Next: string }) => c.Next),
    ])
      if (next) visit(next);
  };
  visit(definition.StartAt);
  return seen;
}

describe('the inspection state machine (statemachines/inspection.ts)', () => {
  it('is committed as statemachines/inspection.asl.json, byte for byte', () => {
    expect(
      readFileSync(INSPECTION_ASL_PATH, 'utf8'),
      'stale: regenerate with WRITE_INSPECTION_ASL=1 npx vitest run test/unit/statemachines/inspection.test.ts',
    ).toBe(raw);
  });

  it('is valid Amazon States Language (asl-validator, ARN and path checks on)', () => {
    const result = validate(definition);
    expect(result.errorsText('\n')).toBe('');
    expect(result.isValid).toBe(true);
  });

  it('has one stage state per stage name, in pipeline order, each awaiting its child job with a task token', () => {
    const order: string[] = [];
    let name: string | undefined = definition.StartAt;
    const guard = new Set<string>();
    while (name && !guard.has(name)) {
      guard.add(name);
      const state: Record<string, any> = definition.States[name]!;
      if ((INSPECTION_STAGE_NAMES as readonly string[]).includes(name)) order.push(name);
      // follow the path that runs every stage (the Choice's Default: not skipped)
      name = state.Type === 'Choice' ? state.Default : state.Next;
    }
    expect(order).toEqual([...INSPECTION_STAGE_NAMES]);
    for (const stage of INSPECTION_STAGE_NAMES) {
      const state = definition.States[stage]!;
      // validators accept a misspelt suffix: check it exactly
      expect(state.Resource, stage).toBe('arn:aws:states:::lambda:invoke.waitForTaskToken');
      // validators accept a token task that never passes the token: check it is in the payload
      expect(state.Parameters.Payload['task_token.$'], stage).toBe('$$.Task.Token');
      expect(state.Parameters.Payload).toMatchObject({ action: 'start_stage', stage });
    }
  });

  it('sets TimeoutSeconds on every task (AWS would otherwise wait for a token forever) and on the whole run', () => {
    for (const [name, state] of tasks) expect(state.TimeoutSeconds, name).toBeGreaterThan(0);
    const longestStage = Math.max(
      ...INSPECTION_STAGE_NAMES.map((stage) => definition.States[stage]!.TimeoutSeconds as number),
    );
    expect(definition.TimeoutSeconds).toBeGreaterThan(longestStage * INSPECTION_STAGE_NAMES.length);
  });

  it('catches every failure of every stage and record task with States.ALL (TaskFailed misses States.Timeout) into: cancel remaining → fail', () => {
    for (const [name, state] of tasks) {
      if (name === 'Cancel remaining stages' || name === 'Fail inspection') continue;
      expect(
        state.Catch?.map((c: { ErrorEquals: string[] }) => c.ErrorEquals),
        name,
      ).toEqual([['States.ALL']]);
      expect(state.Catch[0].Next, name).toBe('Cancel remaining stages');
    }
    expect(definition.States['Cancel remaining stages']!.Next).toBe('Fail inspection');
    expect(definition.States['Fail inspection']!.Next).toBe('Inspection failed');
    expect(definition.States['Inspection failed']!.Type).toBe('Fail');
  });

  it('gates each stage on a skip flag computed once from the excluded stages, recording skipped stages too', () => {
    const compute = definition.States['Compute skips']!;
    for (const stage of INSPECTION_STAGE_NAMES) {
      expect(compute.Parameters.skip[`${stage}.$`]).toBe(`States.ArrayContains($.plan.exclude, '${stage}')`);
      const gate = definition.States[`Gate ${stage}`]!;
      expect(gate.Choices).toEqual([{ Variable: `$.skip.${stage}`, BooleanEquals: true, Next: `Skip ${stage}` }]);
      expect(gate.Default).toBe(stage);
      expect(definition.States[stage]!.Next).toBe(`Record ${stage}`);
      expect(definition.States[`Record ${stage}`]!.Next).toBe(definition.States[`Skip ${stage}`]!.Next);
    }
  });

  it('reaches every state, and every lambda:invoke payload is one the stage worker accepts', () => {
    expect([...reachable()].sort()).toEqual(Object.keys(definition.States).sort());
    for (const [name, state] of tasks) {
      expect(state.Parameters.FunctionName, name).toBe(
        'arn:aws:lambda:eu-west-1:123456789012:function:inspection-stage',
      );
      // evaluate the payload's paths the way Step Functions would, with sample values
      const sample = Object.fromEntries(
        Object.entries(state.Parameters.Payload as Record<string, unknown>).map(([key, value]) => {
          if (!key.endsWith('.$')) return [key, value];
          const field = key.slice(0, -2);
          return [
            field,
            field === 'failure'
              ? { Error: 'States.TaskFailed', Cause: 'x' }
              : field === 'inspection_id'
                ? 'job_1111111111'
                : 'token',
          ];
        }),
      );
      expect(StageActionSchema.safeParse(sample).success, name).toBe(true);
    }
  });

  it('keeps its only placeholder for DefinitionSubstitutions', () => {
    expect([...new Set(raw.match(/\$\{[A-Za-z0-9_]+\}/g))]).toEqual(['${StageFunctionArn}']);
  });
});
