import { DEFAULT_QUEUE_TIMEOUT_SECONDS } from '../lambdas/domain/catalogue/catalogue.js';
import { INSPECTION_STAGES } from '../lambdas/domain/catalogue/inspection-stages.js';
import { DEFAULT_CONFIG } from '../lambdas/domain/ports/services.js';

/**
 * The inspection state machine (Amazon States Language), built from the stage table: per stage a
 * gate (excluded → skip), the stage itself (a child job awaited by task token) and its record,
 * between a begin and a finalize; any failure cancels the remaining stages and fails the run
 * (docs/internals/inspections.md, "Pipeline"). CDK deploys it and the local runtime runs it; the committed
 * `statemachines/inspection.asl.json` (INSPECTION_ASL_PATH) is this definition written out, for
 * readers and tools (`test/unit/statemachines/inspection.test.ts` fails when it differs:
 * `WRITE_INSPECTION_ASL=1 npx vitest run test/unit/statemachines/inspection.test.ts` rewrites it).
 */

type State = Record<string, unknown>;

export const INSPECTION_ASL_PATH = new URL('./inspection.asl.json', import.meta.url);

/** The placeholders CDK fills through DefinitionSubstitutions (and `substitute` locally). */
export interface InspectionSubstitutions {
  StageFunctionArn: string;
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: a DefinitionSubstitutions placeholder that CloudFormation fills, not a JavaScript template
const STAGE_FUNCTION = '${StageFunctionArn}';

/** A stage waits for its child job's queue timeout, the live processing limit and a margin. */
const STAGE_WAIT_SECONDS = DEFAULT_QUEUE_TIMEOUT_SECONDS + DEFAULT_CONFIG.liveProcessingTimeoutSeconds + 900;
/** every other task is one short call of the stage worker */
const CALL_SECONDS = 60;
/** the whole run: every stage's longest wait, plus ten minutes for the calls between them */
const RUN_SECONDS = INSPECTION_STAGES.length * STAGE_WAIT_SECONDS + 600;

const CANCEL = 'Cancel remaining stages';
const FAIL = 'Fail inspection';
const FAILED = 'Inspection failed';
const FINALIZE = 'Finalize';

/** Retries of Lambda's own transient errors; anything else is the stage worker's answer. */
const LAMBDA_RETRY = [
  {
    ErrorEquals: [
      'Lambda.ServiceException',
      'Lambda.AWSLambdaException',
      'Lambda.SdkClientException',
      'Lambda.TooManyRequestsException',
    ],
    IntervalSeconds: 1,
    MaxAttempts: 3,
    BackoffRate: 2,
  },
];

const gate = (stage: string) => `Gate ${stage}`;
const record = (stage: string) => `Record ${stage}`;
const skip = (stage: string) => `Skip ${stage}`;

/** A lambda:invoke of the stage worker with `action` and the inspection id; failures go to `onFailure` with the error at `failurePath`. */
function call(
  action: string,
  payload: Record<string, string>,
  next: string,
  options: {
    resultSelector?: Record<string, string>;
    resultPath?: string | null;
    comment?: string;
    waitForToken?: boolean;
    failurePath?: string;
    onFailure?: string;
  } = {},
): State {
  return {
    Type: 'Task',
    ...(options.comment ? { Comment: options.comment } : {}),
    Resource: options.waitForToken
      ? 'arn:aws:states:::lambda:invoke.waitForTaskToken'
      : 'arn:aws:states:::lambda:invoke',
    Parameters: { FunctionName: STAGE_FUNCTION, Payload: { action, 'inspection_id.$': '$.inspection_id', ...payload } },
    TimeoutSeconds: options.waitForToken ? STAGE_WAIT_SECONDS : CALL_SECONDS,
    Retry: LAMBDA_RETRY,
    ...(options.resultSelector ? { ResultSelector: options.resultSelector } : {}),
    ResultPath: options.resultPath === undefined ? null : options.resultPath,
    Catch: [
      {
        ErrorEquals: ['States.ALL'],
        ResultPath: options.failurePath ?? '$.failure',
        Next: options.onFailure ?? CANCEL,
      },
    ],
    Next: next,
  };
}

/** The four states of one stage; `next` is the state after it (the next stage's gate, or Finalize). */
function stageStates(stage: { stage: number; name: string }, next: string): Record<string, State> {
  const { name } = stage;
  return {
    [gate(name)]: {
      Type: 'Choice',
      Choices: [{ Variable: `$.skip.${name}`, BooleanEquals: true, Next: skip(name) }],
      Default: name,
    },
    [name]: call('start_stage', { stage: name, 'task_token.$': '$$.Task.Token' }, record(name), {
      comment: `stage ${stage.stage}: create the child job and wait until its settlement sends the task token back`,
      waitForToken: true,
      resultPath: '$.stage_outcome',
    }),
    [record(name)]: call('record_stage', { stage: name }, next),
    [skip(name)]: call('skip_stage', { stage: name }, next),
  };
}

export function inspectionDefinition(): State {
  const names = INSPECTION_STAGES.map((stage) => stage.name);
  return {
    Comment:
      'Vehicle inspection: eight stages, each a child job awaited by task token; excluded stages are skipped; every stage is recorded (and its inspection.stage_completed event emitted) before the next starts.',
    StartAt: 'Begin',
    TimeoutSeconds: RUN_SECONDS,
    States: {
      Begin: call('begin', {}, 'Proceed?', {
        resultSelector: { 'proceed.$': '$.Payload.proceed', 'exclude.$': '$.Payload.exclude' },
        resultPath: '$.plan',
      }),
      'Proceed?': {
        Type: 'Choice',
        Choices: [{ Variable: '$.plan.proceed', BooleanEquals: false, Next: 'Not started' }],
        Default: 'Compute skips',
      },
      'Not started': {
        Type: 'Succeed',
        Comment:
          'the inspection left queued/processing before the pipeline began (canceled, expired or already settled)',
      },
      'Compute skips': {
        Type: 'Pass',
        Comment: 'Choice rules need a path, not an intrinsic: compute every skip flag once',
        Parameters: {
          'inspection_id.$': '$.inspection_id',
          skip: Object.fromEntries(
            names.map((name) => [`${name}.$`, `States.ArrayContains($.plan.exclude, '${name}')`]),
          ),
        },
        Next: gate(names[0]!),
      },
      ...Object.assign(
        {},
        ...INSPECTION_STAGES.map((stage, i) =>
          stageStates(stage, i + 1 < names.length ? gate(names[i + 1]!) : FINALIZE),
        ),
      ),
      [FINALIZE]: call('finalize', {}, 'Inspection succeeded'),
      'Inspection succeeded': { Type: 'Succeed' },
      [CANCEL]: call('cancel_remaining', { 'failure.$': '$.failure' }, FAIL, {
        failurePath: '$.cleanup_failure',
        onFailure: FAIL,
      }),
      [FAIL]: call('fail_inspection', { 'failure.$': '$.failure' }, FAILED, {
        failurePath: '$.cleanup_failure',
        onFailure: FAILED,
      }),
      [FAILED]: {
        Type: 'Fail',
        Error: 'InspectionFailed',
        Cause: 'A stage failed or timed out; the remaining stages were canceled and the inspection settled as failed.',
      },
    },
  };
}

/** The definition as the committed file holds it. */
export function inspectionDefinitionJson(): string {
  return `${JSON.stringify(inspectionDefinition(), null, 2)}\n`;
}

/** `${Name}` → value, the way Step Functions applies DefinitionSubstitutions; an unfilled placeholder is an error. */
export function substitute(
  definition: string,
  substitutions: InspectionSubstitutions | Readonly<Record<string, string>>,
): string {
  const filled = definition.replace(/\$\{([A-Za-z0-9_]+)\}/g, (match, name: string) => {
    const value = (substitutions as Readonly<Record<string, string | undefined>>)[name];
    if (value === undefined) throw new Error(`no substitution for ${match} in the state machine definition`);
    return value;
  });
  return filled;
}
