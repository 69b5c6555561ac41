import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { USAGE_STORE, type KeyUsageDoc, type UsageStore } from './usage-store';

const FLUSH_MS = 1000;

/**
 * Requests and response bytes per key per UTC day. Counted in memory on the hot path and written
 * to the usage store once a second (and before every usage read), so a request never waits on it.
 */
@Injectable()
export class UsageRecorder implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private pending = new Map<string, KeyUsageDoc>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

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

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      await this.store.add(batch);
    });
    return this.flushing;
  }

  async forTeam(teamId: string, days: readonly string[]): Promise<KeyUsageDoc[]> {
    await this.flush();
    return this.store.forTeam(teamId, days);
  }
}
