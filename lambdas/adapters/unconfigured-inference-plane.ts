import type { InferencePlane } from '../domain/ports/jobs.js';

/** Used until a live inference plane is configured: live jobs stay queued and expire, releasing their credits. */
export class UnconfiguredInferencePlane implements InferencePlane {
  async submit(): Promise<boolean> {
    return false;
  }
}
