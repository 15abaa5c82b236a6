/**
 * Named points between the steps of admission, processing, settlement and expiry. Tests
 * install an injector that throws at one of them to prove a crash there loses nothing.
 */
export type FaultPoint =
  | 'admission.before_commit'
  | 'admission.after_commit'
  | 'admission.after_enqueue'
  | 'processing.after_pick_up'
  | 'processing.after_backend'
  | 'processing.after_settle'
  | 'expiry.before_commit'
  | 'expiry.after_commit'
  | 'settlement.after_commit'
  | 'webhooks.before_dispatched';

export interface FaultInjector {
  reach(point: FaultPoint): void;
}

export const NO_FAULTS: FaultInjector = { reach: () => undefined };

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
      throw new Error(`injected crash at ${point}`);
    }
  }
}
