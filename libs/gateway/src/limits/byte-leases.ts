import { utcDay } from '@analyst/domain-identity';
import type { RateCounters } from './rate-counters';

/** The largest lease a replica takes at once. */
export const MAX_LEASE_BYTES = 1 << 20;
/** A lease is at most this fraction of the daily cap, so the bytes leases hold back stay small. */
const LEASE_SHARE = 100;

interface Lease {
  day: string;
  bytes: number;
}

/**
 * The daily byte cap on counters shared by replicas, at one round trip per many responses instead
 * of one per response. A replica adds bytes to the key's shared day count ahead of use, in leases
 * (1% of the cap, at most 1 MiB), and spends them on its responses locally; only a response its
 * lease cannot cover goes to the store. A grant that would take the count past the cap is trimmed
 * to what fits, so the count never passes it: no response is sent past the cap, on any replica.
 * The price: bytes leased but not yet sent count as used, so another replica may refuse a little
 * early (by at most the leases others hold, 1% of the cap each). This replica's own lease is
 * subtracted wherever it reports or checks the count.
 */
export class ByteLeases {
  private readonly held = new Map<string, Lease>();

  constructor(private readonly counters: Pick<RateCounters, 'addBytes'>) {}

  /** Bytes this replica leased for the key today and has not sent: counted in the store, not used. */
  unused(keyId: string, now: Date): number {
    const lease = this.held.get(keyId);
    return lease && lease.day === utcDay(now) ? lease.bytes : 0;
  }

  /** Spends `size` bytes from the lease when it covers them (true); false, with nothing spent, otherwise. */
  spendFromLease(keyId: string, size: number, now: Date): boolean {
    const lease = this.leaseOf(keyId, now);
    if (size > lease.bytes) return false;
    lease.bytes -= size;
    return true;
  }

  /**
   * Spends `size` bytes of the key's day under `cap`; false, with nothing spent, when sending them
   * would take the day past the cap.
   */
  async spend(keyId: string, size: number, cap: number, now: Date): Promise<boolean> {
    if (this.spendFromLease(keyId, size, now)) return true;
    const lease = this.leaseOf(keyId, now);
    const grant = size - lease.bytes + Math.min(MAX_LEASE_BYTES, Math.floor(cap / LEASE_SHARE));
    const total = await this.counters.addBytes(keyId, grant, now);
    // What did not fit under the cap goes back; what fits stays leased, even when it is too little now.
    const over = Math.min(grant, Math.max(0, total - cap));
    if (over > 0) await this.counters.addBytes(keyId, -over, now);
    lease.bytes += grant - over;
    if (size > lease.bytes) return false;
    lease.bytes -= size;
    return true;
  }

  /** Counts `size` bytes sent whatever the cap: from the lease when it covers them, else in the store. */
  async count(keyId: string, size: number, now: Date): Promise<void> {
    if (!this.spendFromLease(keyId, size, now)) await this.counters.addBytes(keyId, size, now);
  }

  /** Hands every unused lease of today back to the store (at shutdown), so it counts as unused again. */
  async release(now: Date): Promise<void> {
    const day = utcDay(now);
    const leases = [...this.held.entries()];
    this.held.clear();
    await Promise.all(
      leases
        .filter(([, lease]) => lease.day === day && lease.bytes > 0)
        .map(([keyId, lease]) => this.counters.addBytes(keyId, -lease.bytes, now)),
    );
  }

  private leaseOf(keyId: string, now: Date): Lease {
    const day = utcDay(now);
    let lease = this.held.get(keyId);
    // Yesterday's lease counted against yesterday: it is dropped, not returned.
    if (!lease || lease.day !== day) {
      lease = { day, bytes: 0 };
      this.held.set(keyId, lease);
    }
    return lease;
  }
}
