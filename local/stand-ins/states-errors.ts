import { STATE_PAYLOAD_LIMIT_BYTES } from '../../statemachines/batch.js';
import { ServiceError } from './aws-json-services.js';

/**
 * An error a local state reports as Step Functions names it (`States.ItemReaderFailed`, ...). The
 * library running the ASL (aws-local-stepfunctions) matches Retry and Catch on `name`, and leaves an
 * error alone when `isRetryable` / `isCatchable` is false.
 */
export class StatesError extends Error {
  readonly isCatchable: boolean;
  readonly isRetryable: boolean;

  constructor(name: string, cause: string, terminal = false) {
    super(cause);
    this.name = name;
    this.isCatchable = !terminal;
    this.isRetryable = !terminal;
  }
}

/** The size Step Functions measures a payload by: its JSON text in UTF-8 bytes. */
export function payloadBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');
}

/**
 * `States.DataLimitExceeded` when `value` is over the 256 KiB state payload (262,144 bytes): a
 * terminal error, which neither a `States.ALL` retrier nor a `States.ALL` catcher sees, so the
 * execution fails (docs/internals/architecture.md, "Platform limits").
 */
export function checkPayload(value: unknown, what: string): void {
  const bytes = payloadBytes(value);
  if (bytes > STATE_PAYLOAD_LIMIT_BYTES)
    throw new StatesError(
      'States.DataLimitExceeded',
      `${what} has ${bytes} bytes, over the state payload limit of ${STATE_PAYLOAD_LIMIT_BYTES}`,
      true,
    );
}

/**
 * StartExecution's `input` is at most 262,144 UTF-8 bytes (its API reference's length constraint): AWS
 * refuses a longer one in the call itself, with the validation error every AWS JSON API answers a
 * broken constraint with, and starts nothing (docs/internals/architecture.md, "Platform limits").
 */
export function checkExecutionInput(input: string): void {
  if (Buffer.byteLength(input, 'utf8') > STATE_PAYLOAD_LIMIT_BYTES)
    throw new ServiceError(
      'ValidationException',
      `1 validation error detected: Value at 'input' failed to satisfy constraint: Member must have length less than or equal to ${STATE_PAYLOAD_LIMIT_BYTES}`,
    );
}
