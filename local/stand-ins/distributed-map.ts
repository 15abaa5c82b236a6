import { STATE_PAYLOAD_LIMIT_BYTES } from '../../statemachines/batch.js';
import { applyTemplate } from './json-path.js';
import { checkPayload, payloadBytes, StatesError } from './states-errors.js';

/** The fields of a Distributed Map state the local executor runs (statemachines/batch.asl.json uses them all). */
export interface DistributedMapState {
  Type: 'Map';
  ItemReader: {
    Resource: string;
    ReaderConfig?: { InputType?: string; MaxItems?: number };
    Parameters?: Record<string, unknown>;
  };
  ItemSelector?: Record<string, unknown>;
  ItemBatcher?: { MaxItemsPerBatch?: number; MaxInputBytesPerBatch?: number; BatchInput?: Record<string, unknown> };
  MaxConcurrency?: number;
  ToleratedFailurePercentage?: number;
  ToleratedFailureCount?: number;
  ItemProcessor: { ProcessorConfig?: { Mode?: string; ExecutionType?: string }; StartAt: string; States: object };
}

/** What a map run reaches outside itself: the S3 stand-in, and the child executions of its ItemProcessor. */
export interface MapRunPorts {
  readObject(bucket: string, key: string): Promise<string>;
  /** runs the ItemProcessor on one child input; rejects when the child execution fails */
  runChild(input: unknown, signal: AbortSignal): Promise<unknown>;
}

/** AWS's ceiling on a Distributed Map's concurrent child executions, and what a MaxConcurrency of 0 means. */
export const DISTRIBUTED_MAP_MAX_CONCURRENCY = 10_000;

const S3_GET_OBJECT = 'arn:aws:states:::s3:getObject';

/** True for a Map state the library cannot run: one that reads its items with an ItemReader (a Distributed Map). */
export function isDistributedMap(state: { Type?: string }): state is DistributedMapState {
  return state.Type === 'Map' && 'ItemReader' in state;
}

/** Refuses, when the definition is loaded, a Distributed Map using what the local executor does not run. */
export function assertRunnableLocally(name: string, state: DistributedMapState): void {
  const reader = state.ItemReader;
  const inputType = reader.ReaderConfig?.InputType;
  if (reader.Resource !== S3_GET_OBJECT || (inputType !== 'JSONL' && inputType !== 'JSON'))
    throw new Error(`${name}: the local Distributed Map reads s3:getObject with InputType JSONL or JSON only`);
  if ('ResultWriter' in state)
    throw new Error(`${name}: the local Distributed Map writes no results to S3 (ResultWriter)`);
  const batcher = state.ItemBatcher;
  if (batcher && batcher.MaxItemsPerBatch === undefined && batcher.MaxInputBytesPerBatch === undefined)
    throw new Error(`${name}: an ItemBatcher names MaxItemsPerBatch or MaxInputBytesPerBatch`);
  if ((batcher?.MaxInputBytesPerBatch ?? 0) > STATE_PAYLOAD_LIMIT_BYTES)
    throw new Error(`${name}: MaxInputBytesPerBatch is at most ${STATE_PAYLOAD_LIMIT_BYTES}`);
}

/** The items of the object the ItemReader names, at most `MaxItems` of them. */
async function readItems(state: DistributedMapState, input: unknown, context: unknown, ports: MapRunPorts) {
  const { Bucket, Key } = applyTemplate(state.ItemReader.Parameters ?? {}, input, context) as Record<string, unknown>;
  let text: string;
  try {
    text = await ports.readObject(String(Bucket), String(Key));
  } catch (error) {
    throw new StatesError('States.ItemReaderFailed', `s3:getObject ${String(Bucket)}/${String(Key)}: ${String(error)}`);
  }
  const maxItems = state.ItemReader.ReaderConfig?.MaxItems || Number.POSITIVE_INFINITY;
  if (state.ItemReader.ReaderConfig?.InputType === 'JSON') {
    const items = parse(text, 'the object');
    if (!Array.isArray(items)) throw new StatesError('States.ItemReaderFailed', 'the object is not a JSON array');
    return items.slice(0, maxItems);
  }
  // JSONL: one JSON value a line; the newline ending the last line starts no item
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.slice(0, maxItems).map((line, index) => parse(line.replace(/\r$/, ''), `line ${index + 1}`));
}

function parse(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new StatesError('States.ItemReaderFailed', `${what} of the input is not JSON`);
  }
}

/**
 * The child inputs: each selected item alone, or, with an ItemBatcher, `{ BatchInput, Items }` of
 * as many items as MaxItemsPerBatch allows whose JSON stays within MaxInputBytesPerBatch (an item
 * larger than that on its own goes alone, and the child input limit decides).
 */
function childInputs(state: DistributedMapState, items: unknown[], input: unknown, context: unknown): unknown[] {
  const batcher = state.ItemBatcher;
  if (!batcher) return items;
  const batchInput = batcher.BatchInput ? applyTemplate(batcher.BatchInput, input, context) : undefined;
  const wrap = (batch: unknown[]) =>
    batchInput === undefined ? { Items: batch } : { BatchInput: batchInput, Items: batch };
  const maxItems = batcher.MaxItemsPerBatch || Number.POSITIVE_INFINITY;
  const maxBytes = batcher.MaxInputBytesPerBatch || STATE_PAYLOAD_LIMIT_BYTES;
  const emptyBytes = payloadBytes(wrap([]));
  const inputs: unknown[] = [];
  let batch: unknown[] = [];
  let bytes = emptyBytes;
  for (const item of items) {
    const itemBytes = payloadBytes(item) + (batch.length > 0 ? 1 : 0);
    if (batch.length > 0 && (batch.length >= maxItems || bytes + itemBytes > maxBytes)) {
      inputs.push(wrap(batch));
      batch = [];
      bytes = emptyBytes;
    }
    bytes += payloadBytes(item) + (batch.length > 0 ? 1 : 0);
    batch.push(item);
  }
  if (batch.length > 0) inputs.push(wrap(batch));
  return inputs;
}

/** True once the failed children are more than ToleratedFailureCount or ToleratedFailurePercentage allow (both absent: none). */
function overThreshold(state: DistributedMapState, failed: number, total: number): boolean {
  const count = state.ToleratedFailureCount;
  const percentage = state.ToleratedFailurePercentage;
  if (count === undefined && percentage === undefined) return failed > 0;
  return (count !== undefined && failed > count) || (percentage !== undefined && (failed / total) * 100 > percentage);
}

/**
 * Runs a Distributed Map as Step Functions does: the ItemReader reads the object from S3, the
 * ItemSelector shapes each item (`$$.Map.Item.Index` and `.Value`, `$` the state's input), the
 * ItemBatcher groups them, and a child execution runs the ItemProcessor on each child input, at
 * most MaxConcurrency at once. A child input over the state payload limit is
 * `States.DataLimitExceeded` (terminal); failed children beyond the tolerated ones end the run with
 * `States.ExceedToleratedFailureThreshold`, the running ones aborted. The result is every child's
 * output (a failed child's `{ Error, Cause }`), in item order.
 */
export async function runDistributedMap(
  state: DistributedMapState,
  input: unknown,
  context: Record<string, unknown>,
  ports: MapRunPorts,
  signal: AbortSignal,
): Promise<unknown[]> {
  const items = await readItems(state, input, context, ports);
  const selected = items.map((value, index) =>
    state.ItemSelector
      ? applyTemplate(state.ItemSelector, input, { ...context, Map: { Item: { Index: index, Value: value } } })
      : value,
  );
  const inputs = childInputs(state, selected, input, context);
  for (const [index, child] of inputs.entries()) checkPayload(child, `the input of child execution ${index + 1}`);

  const results: unknown[] = new Array(inputs.length);
  const children = new AbortController();
  const abortChildren = () => children.abort();
  signal.addEventListener('abort', abortChildren);
  let next = 0;
  let failed = 0;
  let failure: StatesError | undefined;
  const concurrency = Math.min(state.MaxConcurrency || DISTRIBUTED_MAP_MAX_CONCURRENCY, inputs.length);
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let index = next++; index < inputs.length && !failure && !signal.aborted; index = next++) {
          try {
            results[index] = await ports.runChild(inputs[index], children.signal);
          } catch (error) {
            if (children.signal.aborted) return;
            failed += 1;
            const { name, message } = error instanceof Error ? error : new Error(String(error));
            results[index] = { Error: name, Cause: message };
            if (overThreshold(state, failed, inputs.length)) {
              failure = new StatesError(
                'States.ExceedToleratedFailureThreshold',
                `${failed} of ${inputs.length} child executions failed; the last: ${name}: ${message}`,
              );
              children.abort();
            }
          }
        }
      }),
    );
  } finally {
    signal.removeEventListener('abort', abortChildren);
  }
  if (failure) throw failure;
  if (signal.aborted) throw new StatesError('States.Runtime', 'the execution was stopped', true);
  return results;
}
