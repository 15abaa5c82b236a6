import { describe, expect, it } from 'vitest';
import { logFailure } from '../../../../lambdas/domain/kernel/failure-log.js';
import { ArmedFault, InjectedFault } from '../../../../lambdas/domain/kernel/faults.js';
import type { Log } from '../../../../lambdas/domain/ports/services.js';

function recordingLog(): Log & { lines: Array<{ level: string; message: string; extra: Record<string, unknown> }> } {
  const lines: Array<{ level: string; message: string; extra: Record<string, unknown> }> = [];
  const at =
    (level: string) =>
    (message: string, extra: Record<string, unknown> = {}) =>
      void lines.push({ level, message, extra });
  return { lines, info: at('INFO'), warn: at('WARN'), error: at('ERROR') };
}

describe('failures are logged as what they are', () => {
  it('a fault a test injected is a WARN "injected fault" naming it, without a stack', () => {
    const log = recordingLog();
    const armed = new ArmedFault();
    armed.arm('processing.after_backend');
    let thrown: unknown;
    try {
      armed.reach('processing.after_backend');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InjectedFault);
    logFailure(log, 'work message failed', thrown, { message_id: 'm1' });
    expect(log.lines).toEqual([
      {
        level: 'WARN',
        message: 'injected fault',
        extra: { message_id: 'm1', during: 'work message failed', fault: 'injected crash at processing.after_backend' },
      },
    ]);
  });

  it('any other failure stays an ERROR with its name, message and stack', () => {
    const log = recordingLog();
    logFailure(log, 'work message failed', new TypeError('boom'), { message_id: 'm2' });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({
      level: 'ERROR',
      message: 'work message failed',
      extra: { message_id: 'm2', error: { name: 'TypeError', message: 'boom' } },
    });
    expect(String((log.lines[0]!.extra.error as { stack: string }).stack)).toContain('failure-log.test.ts');
    logFailure(log, 'work message failed', 'a string');
    expect(log.lines[1]).toMatchObject({ level: 'ERROR', extra: { error: 'a string' } });
  });
});
