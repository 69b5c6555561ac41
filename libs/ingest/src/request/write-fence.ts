/** What a fence waits on: the read models' progress through the log. */
export interface ProjectionWaiter {
  waitFor(position: number): Promise<void>;
}

/**
 * Read-your-writes for one request: every append of the request is recorded here, and before the
 * answer the request waits once until the read models have the highest position written. A
 * request that answers nobody (a resume) records its writes the same way and never waits.
 */
export class WriteFence {
  private highest = -1;

  /** Records an append's outcome (anything with a `position`) and hands it back. */
  record<T extends { position: number }>(outcome: T): T {
    this.highest = Math.max(this.highest, outcome.position);
    return outcome;
  }

  /** The highest position written so far; -1 before the first write. */
  get position(): number {
    return this.highest;
  }

  /** Waits until the read models have every write recorded so far. */
  async waitForReadModels(projections: ProjectionWaiter): Promise<void> {
    await projections.waitFor(this.highest);
  }
}
