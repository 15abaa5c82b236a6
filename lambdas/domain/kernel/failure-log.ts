import type { Log } from '../ports/services.js';
import { InjectedFault } from './faults.js';

/**
 * Logs a failure the code recovered from or answered for: a fault a test injected on purpose as
 * the expected event it is (WARN `injected fault`, its message, no stack); anything else as an
 * ERROR with the error's name, message and stack, so a real fault is never quieter than before.
 */
export function logFailure(log: Log, message: string, error: unknown, fields: Record<string, unknown> = {}): void {
  if (error instanceof InjectedFault) {
    log.warn('injected fault', { ...fields, during: message, fault: error.message });
    return;
  }
  log.error(message, {
    ...fields,
    error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
  });
}
