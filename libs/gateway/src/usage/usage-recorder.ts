import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { USAGE_STORE, UsageNotWritten, type KeyUsageDoc, type UsageStore } from './usage-store';

const FLUSH_MS = 1000;

/**
 * Requests and response bytes per key per UTC day. Counted in memory on the hot path and written
 * to the usage store once a second (and before every usage read), so a request never waits on it.
 * A write that fails keeps the entries it did not write for the next flush: a store outage delays
 * usage, never loses it, and never takes the process down.
 */
@Injectable()
export class UsageRecorder implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private pending = new Map<string, KeyUsageDoc>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly logger = new Logger('UsageRecorder');

  constructor(@Inject(USAGE_STORE) private readonly store: UsageStore) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Before the HTTP server closes (the usage store may close with the app), and again after. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  record(keyId: string, teamId: string, day: string, requests: number, bytes: number): void {
    const id = `${keyId}:${day}`;
    const entry = this.pending.get(id);
    if (entry) {
      entry.requests += requests;
      entry.bytes += bytes;
    } else {
      this.pending.set(id, { _id: id, keyId, teamId, day, requests, bytes });
    }
  }

  /** Writes what is pending; never rejects (what could not be written stays pending). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.store.add(batch);
      } catch (error) {
        // An unknown failure may have written part of the batch; only UsageNotWritten says which part was not.
        const unwritten = error instanceof UsageNotWritten ? error.unwritten : batch;
        for (const u of unwritten) this.record(u.keyId, u.teamId, u.day, u.requests, u.bytes);
        this.logger.warn(
          `usage of ${unwritten.length} key-days not written, kept for the next flush: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
    return this.flushing;
  }

  async forTeam(teamId: string, days: readonly string[]): Promise<KeyUsageDoc[]> {
    await this.flush();
    return this.store.forTeam(teamId, days);
  }
}
