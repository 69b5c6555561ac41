import type { ComponentHealth } from '../nest/health-registry';

export interface ProjectionHealthBounds {
  /** Not ready when the log head is ahead and no event was applied for this long. */
  stuckAfterMs: number;
  /** Not live (restart me) when failing, or stuck, continuously for this long. */
  deadAfterMs: number;
}

export const DEFAULT_HEALTH_BOUNDS: ProjectionHealthBounds = {
  stuckAfterMs: 60_000,
  deadAfterMs: 5 * 60_000,
};

function seconds(ms: number): number {
  return Math.round(ms / 1000);
}

/**
 * What one projection knows about itself: how far it applied the log, how far the log goes, and
 * whether it is failing. Fed by the projection's loop and its head poll; `check()` turns it into a
 * health report (cheap and synchronous, as the registry needs), and the metrics read it at scrape.
 */
export class ProjectionHealth {
  private caughtUpOnce = false;
  private stopped = false;
  private lastProgressAt: number;
  private behindSince: number | null = null;
  private failingSince: number | null = null;
  private lastError = '';
  position = -1;
  head = -1;
  /** When the last applied event occurred (ms since epoch), or null before the first one. */
  lastEventAt: number | null = null;

  constructor(
    private readonly bounds: ProjectionHealthBounds = DEFAULT_HEALTH_BOUNDS,
    private readonly now: () => number = Date.now,
  ) {
    this.lastProgressAt = now();
  }

  started(position: number): void {
    this.position = position;
    this.lastProgressAt = this.now();
    this.stopped = false;
  }

  progressed(position: number, occurredAt: string | undefined): void {
    if (position > this.position) {
      this.position = position;
      this.lastProgressAt = this.now();
    }
    const at = occurredAt ? Date.parse(occurredAt) : NaN;
    if (!Number.isNaN(at)) this.lastEventAt = at;
    if (this.position >= this.head) this.behindSince = null;
  }

  caughtUp(): void {
    this.caughtUpOnce = true;
  }

  get hasCaughtUp(): boolean {
    return this.caughtUpOnce;
  }

  headSeen(head: number): void {
    this.head = head;
    if (head <= this.position) this.behindSince = null;
    else this.behindSince ??= this.now();
  }

  failed(error: unknown): void {
    this.failingSince ??= this.now();
    this.lastError = error instanceof Error ? error.message : String(error);
  }

  recovered(): void {
    this.failingSince = null;
  }

  /** How long it has been failing without a success in between, or 0. */
  get failingForMs(): number {
    return this.failingSince === null ? 0 : this.now() - this.failingSince;
  }

  stop(): void {
    this.stopped = true;
  }

  /** Global positions between the last applied event and the log head (events on a dense log). */
  get lagPositions(): number {
    return Math.max(0, this.head - this.position);
  }

  /** Age of the last applied event while the head is ahead; 0 once caught up with it. */
  get lagSeconds(): number {
    if (this.lagPositions === 0 || this.lastEventAt === null) return 0;
    return Math.max(0, (this.now() - this.lastEventAt) / 1000);
  }

  check(): ComponentHealth {
    const now = this.now();
    const at = `at position ${this.position}, log head ${this.head}`;
    if (this.stopped) return { ready: false, detail: 'stopped' };
    if (this.failingSince !== null) {
      const failing = now - this.failingSince;
      const live = failing <= this.bounds.deadAfterMs;
      const limit = live ? '' : ` (longer than ${seconds(this.bounds.deadAfterMs)} s)`;
      return {
        ready: false,
        live,
        detail: `failing for ${seconds(failing)} s${limit}, retrying ${at}: ${this.lastError}`,
      };
    }
    if (this.behindSince !== null) {
      const still = now - Math.max(this.behindSince, this.lastProgressAt);
      if (still > this.bounds.stuckAfterMs) {
        const live = still <= this.bounds.deadAfterMs;
        return { ready: false, live, detail: `no progress for ${seconds(still)} s ${at}` };
      }
    }
    if (!this.caughtUpOnce) return { ready: false, detail: `catching up ${at}` };
    return { ready: true };
  }
}
