import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '@analyst/platform';

export const KEY_USAGE_COLLECTION = 'identity_key_usage';

export interface KeyUsageDoc {
  _id: string;
  keyId: string;
  teamId: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  requests: number;
  bytes: number;
  [key: string]: unknown;
}

const FLUSH_MS = 1000;

/**
 * Requests and response bytes per key per UTC day. Counted in memory on the hot path and written
 * to the read store once a second (and before every usage read), so a request never waits on it.
 */
@Injectable()
export class UsageRecorder implements OnModuleInit, OnApplicationShutdown {
  private pending = new Map<string, KeyUsageDoc>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
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
      const collection = this.store.collection<KeyUsageDoc>(KEY_USAGE_COLLECTION);
      for (const u of batch) {
        await collection.updateOne(
          { _id: u._id },
          { $setOnInsert: { keyId: u.keyId, teamId: u.teamId, day: u.day }, $inc: { requests: u.requests, bytes: u.bytes } },
          { upsert: true },
        );
      }
    });
    return this.flushing;
  }

  async forTeam(teamId: string, days: readonly string[]): Promise<KeyUsageDoc[]> {
    await this.flush();
    return this.store.collection<KeyUsageDoc>(KEY_USAGE_COLLECTION).find({ teamId, day: { $in: [...days] } });
  }
}
