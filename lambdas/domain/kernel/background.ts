/**
 * Work a long-lived process finishes after answering (the local runtime's enqueue of an admitted
 * job). Tracked so a graceful stop waits for it; a crash that loses it loses nothing, since
 * the table is the source of truth and the sweeper re-drives.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<unknown>>();

  add(task: Promise<unknown>): void {
    const tracked = task.catch(() => undefined).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  async drain(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}
