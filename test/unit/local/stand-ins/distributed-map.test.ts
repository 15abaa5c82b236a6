import { afterEach, describe, expect, it } from 'vitest';
import { type ExecutionEnd, LocalStepFunctions } from '../../../../local/stand-ins/step-functions-engine.js';
import { batchDefinitionJson, STATE_PAYLOAD_LIMIT_BYTES } from '../../../../statemachines/batch.js';
import { substitute } from '../../../../statemachines/inspection.js';

// The local Distributed Map (local/stand-ins/distributed-map.ts) and the state payload limit of the
// local Step Functions engine: the batch ASL CDK deploys, run with its ItemReader over an object
// store, its ItemBatcher, ItemSelector, MaxConcurrency and child executions; and a payload over
// 256 KiB failing the execution past a `States.ALL` catcher, as on AWS (docs/internals/architecture.md).

const FUNCTION = 'arn:aws:lambda:eu-west-1:000000000000:function:batch-run';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const BATCH_INPUT = { batch_id: 'bat_1', lease_token: 'run_lease', bucket: 'files', input_key: 'uploads/in.jsonl' };

interface Harness {
  engine: LocalStepFunctions;
  calls: Array<Record<string, any>>;
  /** settles with the execution's end, as EventBridge would report it */
  ended: Promise<ExecutionEnd>;
}

let engines: LocalStepFunctions[] = [];
afterEach(async () => {
  await Promise.all(engines.map((engine) => engine.stop()));
  engines = [];
});

function harness(
  definition: string,
  objects: Record<string, string>,
  invoke: (payload: Record<string, any>) => Promise<unknown> = async () => ({ outcome: 'admitted' }),
): Harness {
  const calls: Array<Record<string, any>> = [];
  let settle!: (end: ExecutionEnd) => void;
  const ended = new Promise<ExecutionEnd>((resolve) => {
    settle = resolve;
  });
  const engine = new LocalStepFunctions({
    definition,
    log: quiet,
    invoke: async (payload) => {
      calls.push(payload);
      return invoke(payload);
    },
    readObject: async (bucket, key) => {
      const text = objects[`${bucket}/${key}`];
      if (text === undefined) throw new Error('NoSuchKey');
      return text;
    },
    onExecutionEnd: (_key, status) => settle(status),
  });
  engines.push(engine);
  return { engine, calls, ended };
}

const batchAsl = () => substitute(batchDefinitionJson(), { BatchRunFunctionArn: FUNCTION });
const jsonl = (lines: number, value: (n: number) => unknown = (n) => ({ custom_id: `r${n}` })) =>
  Array.from({ length: lines }, (_, n) => `${JSON.stringify(value(n))}\n`).join('');

/** A one-map machine around `map` (ItemReader over files/in.jsonl), its children invoking FUNCTION with their input. */
function mapMachine(map: Record<string, unknown>, after: Record<string, unknown> = { End: true }): string {
  return JSON.stringify({
    StartAt: 'Map',
    States: {
      Map: {
        Type: 'Map',
        ItemReader: {
          Resource: 'arn:aws:states:::s3:getObject',
          ReaderConfig: { InputType: 'JSONL' },
          Parameters: { Bucket: 'files', Key: 'in.jsonl' },
        },
        ItemProcessor: {
          ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
          StartAt: 'Work',
          States: {
            Work: {
              Type: 'Task',
              Resource: 'arn:aws:states:::lambda:invoke',
              Parameters: { FunctionName: FUNCTION, 'Payload.$': '$' },
              TimeoutSeconds: 60,
              End: true,
            },
          },
        },
        ResultPath: null,
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'Caught' }],
        ...map,
        ...after,
      },
      Caught: {
        Type: 'Task',
        Resource: 'arn:aws:states:::lambda:invoke',
        Parameters: { FunctionName: FUNCTION, Payload: { action: 'caught', 'error.$': '$.failure.Error' } },
        TimeoutSeconds: 60,
        End: true,
      },
    },
  });
}

describe('the batch state machine on the local Distributed Map', () => {
  it('reads the JSONL input, admits it 40 lines to an item batch with their line numbers, then marks it fully read', async () => {
    const { engine, calls, ended } = harness(batchAsl(), { 'files/uploads/in.jsonl': jsonl(100) });
    await engine.startNamed('bat_1', BATCH_INPUT);
    expect(await ended).toBe('SUCCEEDED');
    const admits = calls.filter((call) => call.action === 'admit_lines');
    expect(admits.map((call) => call.items.length).sort()).toEqual([20, 40, 40]);
    const items = admits.flatMap((call) => call.items).sort((a, b) => a.index - b.index);
    expect(items.map((item) => item.index)).toEqual(Array.from({ length: 100 }, (_, n) => n));
    expect(items[7]).toEqual({ index: 7, value: { custom_id: 'r7' } });
    for (const call of admits) expect(call).toMatchObject({ batch_id: 'bat_1', lease_token: 'run_lease' });
    expect(calls.at(-1)).toEqual({ action: 'finish', batch_id: 'bat_1', lease_token: 'run_lease' });
    expect(engine.describeNamed('bat_1')).toBe('succeeded');
  });

  it('lets go of the lease when an item batch fails, the failure caught by the Map', async () => {
    const { engine, calls, ended } = harness(batchAsl(), { 'files/uploads/in.jsonl': jsonl(10) }, async (payload) => {
      if (payload.action === 'admit_lines') throw Object.assign(new Error('no'), { name: 'LineStoreBroken' });
      return { outcome: 'released' };
    });
    await engine.startNamed('bat_1', BATCH_INPUT);
    expect(await ended).toBe('FAILED');
    expect(calls.map((call) => call.action)).toEqual(['admit_lines', 'release']);
  });
});

describe('the local Distributed Map', () => {
  it('reads at most MaxItems lines, and fails the reader on a line that is not JSON', async () => {
    const limited = harness(
      mapMachine({ ItemReader: { ...readerOf(mapMachine({})), ReaderConfig: { InputType: 'JSONL', MaxItems: 3 } } }),
      { 'files/in.jsonl': jsonl(10) },
    );
    await limited.engine.startNamed('limited', {});
    expect(await limited.ended).toBe('SUCCEEDED');
    expect(limited.calls.map((call) => call.custom_id)).toEqual(['r0', 'r1', 'r2']);

    const broken = harness(mapMachine({}), { 'files/in.jsonl': '{"a":1}\nnot json\n' });
    await broken.engine.startNamed('broken', {});
    expect(await broken.ended).toBe('SUCCEEDED');
    expect(broken.calls).toEqual([{ action: 'caught', error: 'States.ItemReaderFailed' }]);
  });

  it('batches by MaxInputBytesPerBatch as well as MaxItemsPerBatch', async () => {
    // each item is 1,000 bytes of JSON or so: three fit 3,500 bytes with the wrapper, a fourth does not
    const { engine, calls, ended } = harness(
      mapMachine({ ItemBatcher: { MaxItemsPerBatch: 10, MaxInputBytesPerBatch: 3500 } }),
      { 'files/in.jsonl': jsonl(7, (n) => ({ n, pad: 'x'.repeat(990) })) },
    );
    await engine.startNamed('bytes', {});
    expect(await ended).toBe('SUCCEEDED');
    expect(calls.map((call) => call.Items.map((item: { n: number }) => item.n))).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    for (const call of calls) expect(Buffer.byteLength(JSON.stringify(call))).toBeLessThanOrEqual(3500);
  });

  it('shapes each item with the ItemSelector: its index, its value and the state input', async () => {
    const { engine, calls, ended } = harness(
      mapMachine({
        ItemSelector: { 'line.$': '$$.Map.Item.Index', 'id.$': '$$.Map.Item.Value.custom_id', 'tag.$': '$.tag' },
      }),
      { 'files/in.jsonl': jsonl(2) },
    );
    await engine.startNamed('selector', { tag: 't' });
    expect(await ended).toBe('SUCCEEDED');
    expect(calls).toEqual([
      { line: 0, id: 'r0', tag: 't' },
      { line: 1, id: 'r1', tag: 't' },
    ]);
  });

  it('runs at most MaxConcurrency child executions at once', async () => {
    let running = 0;
    let most = 0;
    const { engine, calls, ended } = harness(
      mapMachine({ MaxConcurrency: 3 }),
      { 'files/in.jsonl': jsonl(12) },
      async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return {};
      },
    );
    await engine.startNamed('capped', {});
    expect(await ended).toBe('SUCCEEDED');
    expect(calls).toHaveLength(12);
    expect(most).toBe(3);
  });

  it('tolerates failed children up to ToleratedFailureCount, then fails with States.ExceedToleratedFailureThreshold', async () => {
    const failOdd = async (payload: Record<string, any>) => {
      if (payload.n % 2 === 1) throw Object.assign(new Error('odd'), { name: 'Odd' });
      return {};
    };
    const tolerant = harness(
      mapMachine({ ToleratedFailureCount: 2, MaxConcurrency: 1 }),
      {
        'files/in.jsonl': jsonl(4, (n) => ({ n })),
      },
      failOdd,
    );
    await tolerant.engine.startNamed('tolerant', {});
    expect(await tolerant.ended).toBe('SUCCEEDED');
    expect(tolerant.calls.some((call) => call.action === 'caught')).toBe(false);

    const strict = harness(
      mapMachine({ ToleratedFailurePercentage: 0, MaxConcurrency: 1 }),
      {
        'files/in.jsonl': jsonl(4, (n) => ({ n })),
      },
      failOdd,
    );
    await strict.engine.startNamed('strict', {});
    expect(await strict.ended).toBe('SUCCEEDED');
    // the first failure ends the map: no child starts after it
    expect(strict.calls).toEqual([
      { n: 0 },
      { n: 1 },
      { action: 'caught', error: 'States.ExceedToleratedFailureThreshold' },
    ]);
  });
});

describe('the 256 KiB state payload limit of the local Step Functions engine', () => {
  const big = 'x'.repeat(STATE_PAYLOAD_LIMIT_BYTES);

  it('fails the execution with States.DataLimitExceeded when a task result is over it, past a States.ALL catcher', async () => {
    const definition = JSON.stringify({
      StartAt: 'Big',
      States: {
        Big: {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke',
          Parameters: { FunctionName: FUNCTION, Payload: { action: 'big' } },
          TimeoutSeconds: 60,
          Retry: [{ ErrorEquals: ['States.ALL'], MaxAttempts: 2, IntervalSeconds: 0 }],
          Catch: [{ ErrorEquals: ['States.ALL'], Next: 'Caught' }],
          End: true,
        },
        Caught: {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke',
          Parameters: { FunctionName: FUNCTION, Payload: { action: 'caught' } },
          TimeoutSeconds: 60,
          End: true,
        },
      },
    });
    const { engine, calls, ended } = harness(definition, {}, async () => ({ text: big }));
    await engine.startNamed('too-big', {});
    expect(await ended).toBe('FAILED');
    expect(calls).toEqual([{ action: 'big' }]);
    expect(engine.describeNamed('too-big')).toBe('failed');
  });

  it('fails the execution when a state output is over it after ResultPath, past a States.ALL catcher', async () => {
    // each half fits; the state output (the input with the result added) does not
    const half = 'y'.repeat(STATE_PAYLOAD_LIMIT_BYTES / 2 + 10);
    const definition = JSON.stringify({
      StartAt: 'Grow',
      States: {
        Grow: {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke',
          Parameters: { FunctionName: FUNCTION, Payload: { action: 'grow' } },
          TimeoutSeconds: 60,
          ResultSelector: { 'text.$': '$.Payload.text' },
          ResultPath: '$.grown',
          Catch: [{ ErrorEquals: ['States.ALL'], Next: 'Caught' }],
          Next: 'After',
        },
        After: {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke',
          Parameters: { FunctionName: FUNCTION, Payload: { action: 'after' } },
          TimeoutSeconds: 60,
          End: true,
        },
        Caught: { Type: 'Fail', Error: 'Caught' },
      },
    });
    const { engine, calls, ended } = harness(definition, {}, async () => ({ text: half }));
    await engine.startNamed('grown', { kept: half });
    expect(await ended).toBe('FAILED');
    expect(calls).toEqual([{ action: 'grow' }]);
    expect(engine.terminalErrorOf('grown')?.error).toBe('States.DataLimitExceeded');
  });

  it('fails a Distributed Map whose child input is over it, past the Map own States.ALL catcher', async () => {
    const { engine, calls, ended } = harness(mapMachine({}), { 'files/in.jsonl': jsonl(2, () => ({ big })) });
    await engine.startNamed('big-item', {});
    expect(await ended).toBe('FAILED');
    expect(calls).toEqual([]);
    expect(engine.terminalErrorOf('big-item')?.error).toBe('States.DataLimitExceeded');
  });
});

function readerOf(definition: string): Record<string, unknown> {
  return (JSON.parse(definition) as { States: { Map: { ItemReader: Record<string, unknown> } } }).States.Map.ItemReader;
}
