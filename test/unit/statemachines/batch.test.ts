import '../../../local/stand-ins/promise-with-resolvers.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_LINES } from '../../../lambdas/domain/batches/batch.js';
import { CONCURRENT_LINES, LINES_PER_CHUNK } from '../../../lambdas/domain/batches/driver.js';
import { BATCH_RUN_SECONDS, MAX_RUN_LINE_BYTES } from '../../../lambdas/domain/batches/map-run.js';
import { BatchRunActionSchema } from '../../../lambdas/schemas/batch-run.js';
import {
  ADMISSION_CEILING_PER_SECOND,
  BATCH_ASL_PATH,
  batchDefinitionJson,
  ITEM_BATCH_MAX_BYTES,
  MAP_MAX_CONCURRENCY,
  STATE_PAYLOAD_LIMIT_BYTES,
} from '../../../statemachines/batch.js';
import { substitute } from '../../../statemachines/inspection.js';

const validate = createRequire(import.meta.url)('asl-validator') as (definition: unknown) => {
  isValid: boolean;
  errorsText: (separator?: string) => string;
};

const FUNCTION_ARN = 'arn:aws:lambda:eu-west-1:123456789012:function:batch-run';
const raw = batchDefinitionJson();
if (process.env.WRITE_BATCH_ASL === '1') writeFileSync(BATCH_ASL_PATH, raw);
const definition = JSON.parse(substitute(raw, { BatchRunFunctionArn: FUNCTION_ARN })) as {
  StartAt: string;
  TimeoutSeconds: number;
  States: Record<string, Record<string, any>>;
};
const map = definition.States['Admit lines']!;
const admit = map.ItemProcessor.States['Admit item batch'];

/** A payload's `.$` paths evaluated the way Step Functions would, against `input`. */
function evaluate(payload: Record<string, unknown>, input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(payload).map(([key, value]) => {
      if (!key.endsWith('.$')) return [key, value];
      const path = (value as string).replace(/^\$\./, '').split('.');
      return [key.slice(0, -2), path.reduce<any>((node, part) => node?.[part], input)];
    }),
  );
}

describe('the batch state machine (statemachines/batch.ts)', () => {
  it('is committed as statemachines/batch.asl.json, byte for byte', () => {
    expect(
      readFileSync(BATCH_ASL_PATH, 'utf8'),
      'stale: regenerate with WRITE_BATCH_ASL=1 npx vitest run test/unit/statemachines/batch.test.ts',
    ).toBe(raw);
  });

  it('is valid Amazon States Language (asl-validator)', () => {
    const result = validate(definition);
    expect(result.errorsText('\n')).toBe('');
    expect(result.isValid).toBe(true);
  });

  it('is a Distributed Map reading the JSONL input file from S3, each item with its line number', () => {
    expect(definition.StartAt).toBe('Admit lines');
    expect(map.Type).toBe('Map');
    expect(map.ItemProcessor.ProcessorConfig).toEqual({ Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' });
    expect(map.ItemReader).toEqual({
      Resource: 'arn:aws:states:::s3:getObject',
      ReaderConfig: { InputType: 'JSONL', MaxItems: MAX_BATCH_LINES },
      Parameters: { 'Bucket.$': '$.bucket', 'Key.$': '$.input_key' },
    });
    expect(map.ItemSelector).toEqual({ 'index.$': '$$.Map.Item.Index', 'value.$': '$$.Map.Item.Value' });
    // a failed item batch fails the run, which lets go of the lease for the sweeper
    expect(map.ToleratedFailurePercentage).toBe(0);
    // results stay out of the execution's history: the outcomes are in the table
    expect(map.ResultPath).toBeNull();
  });

  it('hands the worker item batches of one driver chunk (40 lines) with the batch id and the run lease', () => {
    expect(map.ItemBatcher).toEqual({
      MaxItemsPerBatch: LINES_PER_CHUNK,
      MaxInputBytesPerBatch: ITEM_BATCH_MAX_BYTES,
      BatchInput: { 'batch_id.$': '$.batch_id', 'lease_token.$': '$.lease_token' },
    });
    expect(admit.Resource).toBe('arn:aws:states:::lambda:invoke');
    expect(admit.Parameters.FunctionName).toBe(FUNCTION_ARN);
    // a child execution's input as the ItemBatcher builds it
    const child = {
      BatchInput: { batch_id: 'bat_1111111111111111', lease_token: 'run_abc' },
      Items: [{ index: 0, value: { custom_id: 'a', params: {} } }],
    };
    const payload = evaluate(admit.Parameters.Payload, child);
    expect(BatchRunActionSchema.safeParse(payload).success).toBe(true);
    expect(payload).toMatchObject({
      action: 'admit_lines',
      batch_id: 'bat_1111111111111111',
      lease_token: 'run_abc',
      items: child.Items,
    });
  });

  it('runs at most as many item batches as reach the organisation admission ceiling (100 lines a second)', () => {
    expect(ADMISSION_CEILING_PER_SECOND).toBe(100);
    expect(map.MaxConcurrency).toBe(MAP_MAX_CONCURRENCY);
    expect(MAP_MAX_CONCURRENCY).toBe(2);
    // two item batches with 8 lines in flight each, at 0.16 s a line, admit 100 lines a second
    expect((MAP_MAX_CONCURRENCY * CONCURRENT_LINES) / 0.16).toBeGreaterThanOrEqual(ADMISSION_CEILING_PER_SECOND);
  });

  it('retries throttling, transient Lambda errors and conflicted lines on every task, each with a timeout', () => {
    const tasks = [admit, definition.States['Mark fully read']!, definition.States['Release lease']!];
    for (const task of tasks) {
      expect(task.TimeoutSeconds).toBeGreaterThan(0);
      const retried = task.Retry.flatMap((retry: { ErrorEquals: string[] }) => retry.ErrorEquals);
      expect(retried).toEqual(
        expect.arrayContaining(['Lambda.TooManyRequestsException', 'Lambda.ServiceException', 'BatchLinesPending']),
      );
    }
    expect(definition.TimeoutSeconds).toBe(BATCH_RUN_SECONDS);
  });

  it('ends by marking the batch fully read, and on any failure lets go of the lease and fails', () => {
    expect(map.Next).toBe('Mark fully read');
    const finish = definition.States['Mark fully read']!;
    expect(finish.End).toBe(true);
    for (const state of [map, finish])
      expect(state.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'Release lease' }]);
    expect(definition.States['Release lease']!.Next).toBe('Batch run failed');
    expect(definition.States['Batch run failed']!.Type).toBe('Fail');
    const input = { batch_id: 'bat_1111111111111111', lease_token: 'run_abc', bucket: 'b', input_key: 'uploads/x' };
    for (const [name, action] of [
      ['Mark fully read', 'finish'],
      ['Release lease', 'release'],
    ] as const) {
      const payload = evaluate(definition.States[name]!.Parameters.Payload, input);
      expect(payload).toEqual({ action, batch_id: input.batch_id, lease_token: input.lease_token });
      expect(BatchRunActionSchema.safeParse(payload).success, name).toBe(true);
    }
  });

  it("has each item batch return a few bytes, so the map holds 10,000 lines' outcomes far under the 256 KiB state limit", async () => {
    // an item batch of 40 lines of the largest size a run takes, as the ItemBatcher hands it over
    const line = {
      custom_id: 'r'.repeat(64),
      params: { vin: 'WVWZZZ1KZAW000001', note: 'x'.repeat(MAX_RUN_LINE_BYTES - 200) },
    };
    const child = {
      BatchInput: { batch_id: 'bat_1111111111111111', lease_token: 'run_abcdefghijklmnop' },
      Items: Array.from({ length: LINES_PER_CHUNK }, (_, index) => ({ index, value: line })),
    };
    const { StartAt, States } = map.ItemProcessor;
    const processor = new StateMachine({ StartAt, States } as StateMachineDefinition);
    const run = processor.run(child, {
      overrides: {
        taskResourceLocalHandlers: {
          'Admit item batch': async () => ({
            StatusCode: 200,
            ExecutedVersion: '$LATEST',
            Payload: { outcome: 'admitted' },
          }),
        },
      },
    });
    const output = JSON.stringify(await run.result);
    const itemBatches = Math.ceil(MAX_BATCH_LINES / LINES_PER_CHUNK);
    // the map collects every child's output before its ResultPath drops them: a tenth of the limit at most
    expect(Buffer.byteLength(output) * itemBatches).toBeLessThan(STATE_PAYLOAD_LIMIT_BYTES / 10);
  });

  it("bounds an item batch's input under the state limit: lines of the largest size a run takes, 40 to a batch", () => {
    expect(map.ItemBatcher.MaxInputBytesPerBatch).toBe(ITEM_BATCH_MAX_BYTES);
    expect(ITEM_BATCH_MAX_BYTES).toBeLessThanOrEqual(STATE_PAYLOAD_LIMIT_BYTES * 0.75);
    // a full item batch of the largest lines fits the bound whole, with the batch input and the JSON around them
    const item = JSON.stringify({ index: MAX_BATCH_LINES - 1, value: 'x'.repeat(MAX_RUN_LINE_BYTES) });
    expect(LINES_PER_CHUNK * (Buffer.byteLength(item) + 1) + 200).toBeLessThan(ITEM_BATCH_MAX_BYTES);
  });

  it('keeps its only placeholder for DefinitionSubstitutions', () => {
    expect([...new Set(raw.match(/\$\{[A-Za-z0-9_]+\}/g))]).toEqual(['${BatchRunFunctionArn}']);
  });
});
