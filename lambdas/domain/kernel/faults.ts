/**
 * Named points between the steps of admission, processing, settlement and expiry. Tests
 * install an injector that throws at one of them to prove a crash there loses nothing.
 */
export type FaultPoint =
  | 'admission.before_commit'
  | 'admission.after_commit'
  | 'admission.before_answer'
  | 'processing.after_pick_up'
  | 'processing.after_backend'
  | 'processing.after_settle'
  | 'expiry.before_commit'
  | 'expiry.after_commit'
  | 'settlement.after_commit'
  | 'webhooks.before_dispatched'
  | 'batch.after_line'
  | 'batch.after_group';

export interface FaultInjector {
  reach(point: FaultPoint): void;
}

export const NO_FAULTS: FaultInjector = { reach: () => undefined };

/**
 * What a test throws on purpose, from an armed point or a stand-in port: the code handles it like
 * any failure, but its log line says what it is (`logFailure`), so a green test run shows no
 * error traces for faults it caused itself.
 */
export class InjectedFault extends Error {
  override readonly name = 'InjectedFault';
}

/** Throws once at the armed point, then behaves. */
export class ArmedFault implements FaultInjector {
  private armed: FaultPoint | null = null;
  arm(point: FaultPoint): void {
    this.armed = point;
  }
  /** true once the armed crash has happened */
  get fired(): boolean {
    return this.armed === null;
  }
  reach(point: FaultPoint): void {
    if (this.armed === point) {
      this.armed = null;
      throw new InjectedFault(`injected crash at ${point}`);
    }
  }
}
