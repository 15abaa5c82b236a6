/** Time as the domain sees it; tests and the local runtime can move it. */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

export function epochSeconds(clock: Clock): number {
  return Math.floor(clock.nowMs() / 1000);
}

/** A clock that starts at real time and can be advanced by tests. */
export class AdjustableClock implements Clock {
  private offsetMs = 0;
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  /** back to the real time */
  reset(): void {
    this.offsetMs = 0;
  }
}
