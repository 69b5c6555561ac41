export interface Backoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 30_000 };

/** Exponential delay before retry number `attempt` (0-based), capped. */
export function backoffDelay(backoff: Backoff, attempt: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
}

/** Sleeps that `wakeAll` cuts short, so stopping never waits out a long backoff. */
export class Sleeper {
  private readonly sleeping = new Set<() => void>();

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleeping.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleeping.add(done);
    });
  }

  wakeAll(): void {
    for (const done of [...this.sleeping]) done();
  }
}
