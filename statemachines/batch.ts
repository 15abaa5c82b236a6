import { PLAN_RATE_LIMITS } from '../lambdas/domain/access/rate-limits.js';
import { MAX_BATCH_LINES } from '../lambdas/domain/batches/batch.js';
import { CONCURRENT_LINES, LINES_PER_CHUNK } from '../lambdas/domain/batches/driver.js';
import { BATCH_RUN_SECONDS } from '../lambdas/domain/batches/map-run.js';

/**
 * The batch state machine (Amazon States Language): a Distributed Map reads the batch's JSONL
 * input file from S3 and hands its lines, 40 to an item batch with their line numbers, to the
 * batch-run worker, which admits them with the same per-line code as the in-process driver; a
 * last state marks the batch fully read (docs/internals/batches.md, "How it runs"). Any failure lets go of
 * the batch's lease, so the sweeper takes it over. CDK deploys it (lib/batches.ts); the local
 * runtimes run it on a Distributed Map executor of their own (docs/internals/architecture.md). The
 * committed `statemachines/batch.asl.json` (BATCH_ASL_PATH) is this definition written out
 * (`WRITE_BATCH_ASL=1 npx vitest run test/unit/statemachines/batch.test.ts` rewrites it).
 */

type State = Record<string, unknown>;

export const BATCH_ASL_PATH = new URL('./batch.asl.json', import.meta.url);

/** The placeholders CDK fills through DefinitionSubstitutions. */
export interface BatchSubstitutions {
  BatchRunFunctionArn: string;
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: a DefinitionSubstitutions placeholder that CloudFormation fills, not a JavaScript template
const BATCH_RUN_FUNCTION = '${BatchRunFunctionArn}';

/** The organisation's admission ceiling: the highest plan's per-endpoint limit, in lines a second (100). */
export const ADMISSION_CEILING_PER_SECOND =
  Math.max(...Object.values(PLAN_RATE_LIMITS).map((limits) => limits.inferencePerMinute)) / 60;
/** A slow line's admission on Lambda: the rate-limit count and the admission transaction, one conflict retried. */
const SLOW_LINE_SECONDS = 0.16;
/**
 * Item batches admitted at once: each has CONCURRENT_LINES lines in flight, so it admits
 * 8 / 0.16 s = 50 lines a second when lines are slow, and two reach the ceiling; more would only
 * wait on the rate limit and conflict on the batch item (docs/internals/benchmarks.md, "Batches").
 */
export const MAP_MAX_CONCURRENCY = Math.ceil(ADMISSION_CEILING_PER_SECOND / (CONCURRENT_LINES / SLOW_LINE_SECONDS));
/** One item batch is one chunk of the driver. */
export const ITEMS_PER_BATCH = LINES_PER_CHUNK;
/** Step Functions' limit on a state's input and output, and on what a Map collects from its children (256 KiB). */
export const STATE_PAYLOAD_LIMIT_BYTES = 256 * 1024;
/**
 * What the ItemBatcher puts in one item batch at most: three quarters of the state limit, so no
 * child input nears it. 40 lines of MAX_RUN_LINE_BYTES (160 KiB) fit whole; smaller lines never reach it.
 */
export const ITEM_BATCH_MAX_BYTES = 192 * 1024;
/** One item batch's invocation: 40 lines paced by the slowest plan (1 a second), two batches sharing it, and a margin. */
export const ITEM_BATCH_SECONDS = 240;
const CALL_SECONDS = 60;

const MAP = 'Admit lines';
const ADMIT = 'Admit item batch';
const FINISH = 'Mark fully read';
const RELEASE = 'Release lease';
const FAILED = 'Batch run failed';

/** Lambda's own transient errors and throttling; `BatchLinesPending`: lines whose transactions kept conflicting, admitted again (recorded ones skipped). */
const RETRY = [
  {
    ErrorEquals: [
      'Lambda.ServiceException',
      'Lambda.AWSLambdaException',
      'Lambda.SdkClientException',
      'Lambda.TooManyRequestsException',
      'Lambda.ClientExecutionTimeoutException',
    ],
    IntervalSeconds: 2,
    MaxAttempts: 6,
    BackoffRate: 2,
    JitterStrategy: 'FULL',
  },
  {
    ErrorEquals: ['BatchLinesPending', 'States.Timeout'],
    IntervalSeconds: 5,
    MaxAttempts: 3,
    BackoffRate: 2,
    JitterStrategy: 'FULL',
  },
];

function invoke(payload: Record<string, string>, timeoutSeconds: number): State {
  return {
    Type: 'Task',
    Resource: 'arn:aws:states:::lambda:invoke',
    Parameters: { FunctionName: BATCH_RUN_FUNCTION, Payload: payload },
    TimeoutSeconds: timeoutSeconds,
    Retry: RETRY,
  };
}

export function batchDefinition(): State {
  return {
    Comment:
      'A batch: its JSONL input read by a Distributed Map, 40 lines to an item batch, each line admitted once (docs/internals/batches.md)',
    StartAt: MAP,
    TimeoutSeconds: BATCH_RUN_SECONDS,
    States: {
      [MAP]: {
        Type: 'Map',
        Comment:
          'one line per item, in item batches of 40 with the batch id and the run lease; the index is the line number',
        ItemReader: {
          Resource: 'arn:aws:states:::s3:getObject',
          ReaderConfig: { InputType: 'JSONL', MaxItems: MAX_BATCH_LINES },
          Parameters: { 'Bucket.$': '$.bucket', 'Key.$': '$.input_key' },
        },
        ItemSelector: { 'index.$': '$$.Map.Item.Index', 'value.$': '$$.Map.Item.Value' },
        ItemBatcher: {
          MaxItemsPerBatch: ITEMS_PER_BATCH,
          MaxInputBytesPerBatch: ITEM_BATCH_MAX_BYTES,
          BatchInput: { 'batch_id.$': '$.batch_id', 'lease_token.$': '$.lease_token' },
        },
        MaxConcurrency: MAP_MAX_CONCURRENCY,
        ToleratedFailurePercentage: 0,
        ItemProcessor: {
          ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
          StartAt: ADMIT,
          States: {
            [ADMIT]: {
              ...invoke(
                {
                  action: 'admit_lines',
                  'batch_id.$': '$.BatchInput.batch_id',
                  'lease_token.$': '$.BatchInput.lease_token',
                  'items.$': '$.Items',
                },
                ITEM_BATCH_SECONDS,
              ),
              // the child's output is its outcome alone (about 20 bytes): the map collects every
              // child's output, and its input (40 lines) would take the collection past the state limit
              // (no ResultPath: the default, `$`, makes that the state's whole output)
              ResultSelector: { 'outcome.$': '$.Payload.outcome' },
              End: true,
            },
          },
        },
        ResultPath: null,
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: RELEASE }],
        Next: FINISH,
      },
      [FINISH]: {
        ...invoke({ action: 'finish', 'batch_id.$': '$.batch_id', 'lease_token.$': '$.lease_token' }, CALL_SECONDS),
        ResultPath: null,
        Comment:
          'every line has its outcome: the cursor at the end, the lease let go, the batch completed once settled',
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: RELEASE }],
        End: true,
      },
      [RELEASE]: {
        ...invoke({ action: 'release', 'batch_id.$': '$.batch_id', 'lease_token.$': '$.lease_token' }, CALL_SECONDS),
        ResultPath: null,
        Comment:
          'the run failed: the lease is let go, and the sweeper takes the batch over from its cursor, skipping every recorded line',
        Next: FAILED,
      },
      [FAILED]: { Type: 'Fail', Error: 'BatchRunFailed', Cause: 'admission is left to the sweeper' },
    },
  };
}

export function batchDefinitionJson(): string {
  return `${JSON.stringify(batchDefinition(), null, 2)}\n`;
}
