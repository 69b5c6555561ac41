import { DuplicateKeyError, type Doc, type ReadStore } from '../read-store/read-store.port';
import type { Clock } from '../time/clock';

interface LeaseDoc extends Doc {
  _id: string;
  holder: string;
  expiresAt: string;
}

/**
 * A lease in the read store so that only one relay publishes at a time: a second replica keeps
 * trying and takes over when the holder stops renewing. Expiry is checked by the query, not by a
 * TTL index (FerretDB has none).
 */
export class RelayLease {
  constructor(
    private readonly store: ReadStore,
    private readonly clock: Clock,
    private readonly holder: string,
    private readonly name = 'relay',
    readonly ttlMs = 15_000,
  ) {}

  /** Takes or renews the lease; false when another holder has a live one. */
  async tryAcquire(): Promise<boolean> {
    const now = this.clock.now();
    const leases = this.store.collection<LeaseDoc>('leases');
    try {
      const result = await leases.updateOne(
        { _id: this.name, $or: [{ holder: this.holder }, { expiresAt: { $lt: now.toISOString() } }] },
        { $set: { holder: this.holder, expiresAt: new Date(now.getTime() + this.ttlMs).toISOString() } },
        { upsert: true },
      );
      return result.matched === 1 || result.upsertedId !== null;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false; // the lease exists and is someone else's
      throw error;
    }
  }

  async release(): Promise<void> {
    await this.store.collection<LeaseDoc>('leases').deleteMany({ _id: this.name, holder: this.holder });
  }
}
