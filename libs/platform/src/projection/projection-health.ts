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

/** The most positions the process remembers ahead of the projection; beyond it, the last one's time stands for the rest. */
const MAX_KNOWN_AHEAD = 10_000;

/** A log position the process learned exists, and when its event was recorded at the latest. */
interface KnownAhead {
  position: number;
  recordedBy: number;
}

/**
 * What one projection knows about itself: how far it applied the log, how far the log goes, and
 * whether it is failing. The head is the highest position the process has seen: a page the
 * projection read, a write of this process it waits for, a head read (at scrape, and a slow poll
 * for stuck detection). `check()` turns it into a health report (cheap and synchronous, as the
 * registry needs), and the metrics read it at scrape, so lag is what the process knows then.
 */
export class ProjectionHealth {
  private caughtUpOnce = false;
  private stopped = false;
  private lastProgressAt: number;
  private behindSince: number | null = null;
  private failingSince: number | null = null;
  private lastError = '';
  /** Positions ahead of `position` the process knows of, ascending, with their recorded times. */
  private ahead: KnownAhead[] = [];
  /** The first event of the page being applied: its position and recorded time (ms), exact. */
  private applying: KnownAhead | null = null;
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
    this.applying = null;
    this.ahead = this.ahead.filter((known) => known.position > position);
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
    if (this.applying && this.applying.position <= this.position) this.applying = null;
    let applied = 0;
    while (applied < this.ahead.length && this.ahead[applied].position <= this.position) applied++;
    if (applied > 0) this.ahead.splice(0, applied);
    if (this.position >= this.head) this.behindSince = null;
  }

  /**
   * The projection read a page from the log and starts applying it: the log reaches `lastPosition`,
   * and the oldest event not yet applied is the page's first, recorded at `firstOccurredAt`.
   */
  reading(firstPosition: number, firstOccurredAt: string | undefined, lastPosition: number): void {
    const at = firstOccurredAt ? Date.parse(firstOccurredAt) : NaN;
    this.applying = Number.isNaN(at) ? null : { position: firstPosition, recordedBy: at };
    this.headSeen(lastPosition);
  }

  caughtUp(): void {
    this.caughtUpOnce = true;
  }

  get hasCaughtUp(): boolean {
    return this.caughtUpOnce;
  }

  /**
   * The log reaches `head` (a write of this process, a page read, a head read). A lower head than
   * one seen before changes nothing: the log only grows. Its event was recorded by now at the latest.
   */
  headSeen(head: number): void {
    if (head > this.head) {
      this.head = head;
      if (head > this.position) this.remember(head, this.now());
    }
    if (this.head <= this.position) this.behindSince = null;
    else this.behindSince ??= this.now();
  }

  private remember(position: number, recordedBy: number): void {
    const last = this.ahead[this.ahead.length - 1];
    // Full: the newest position takes the last one's (earlier) time, so the lag reads high, never low.
    if (last && this.ahead.length >= MAX_KNOWN_AHEAD) last.position = position;
    else this.ahead.push({ position, recordedBy });
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

  /**
   * Age of the oldest event not yet applied that the process knows of: from its recorded time
   * (occurredAt) once the projection has read it, else from when the process learned the log
   * reached it (so at least that old); 0 once caught up with the head.
   */
  get lagSeconds(): number {
    if (this.lagPositions === 0) return 0;
    let oldest = Infinity;
    if (this.applying && this.applying.position > this.position) oldest = this.applying.recordedBy;
    for (const known of this.ahead)
      if (known.position > this.position) oldest = Math.min(oldest, known.recordedBy);
    if (oldest === Infinity) return 0;
    return Math.max(0, (this.now() - oldest) / 1000);
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
