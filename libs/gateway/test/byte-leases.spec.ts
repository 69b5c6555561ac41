import { ByteLeases, MAX_LEASE_BYTES } from '../src/limits/byte-leases';
import { MemoryRateCounters } from '../src/limits/memory-rate-counters';
import { RateLimitService } from '../src/limits/rate-limit.service';

/** One key's shared day count, as MongoDB's $inc keeps it: each call atomic, answered after a turn of the loop. */
class SharedCount {
  total = 0;
  calls = 0;
  async addBytes(_keyId: string, bytes: number): Promise<number> {
    await new Promise((resolve) => setImmediate(resolve));
    this.calls += 1;
    this.total += bytes;
    return this.total;
  }
}

const NOW = new Date('2026-11-25T12:00:00.000Z');

describe('ByteLeases: the daily byte cap on counters shared by replicas', () => {
  it('on one replica sends exactly what fits under the cap, at one store call per lease', async () => {
    const store = new SharedCount();
    const leases = new ByteLeases(store);
    const cap = 1_000_000;
    let sent = 0;
    let refused = 0;
    let callsToTheCap = 0;
    for (let i = 0; i < 4000; i++) {
      if (await leases.spend('k1', 300, cap, NOW)) sent += 300;
      else refused += 1;
      if (refused === 0) callsToTheCap = store.calls;
    }
    expect(sent).toBe(Math.floor(cap / 300) * 300); // 3,333 responses: the cap, to the last one that fits
    expect(refused).toBe(4000 - 3333);
    expect(store.total).toBeLessThanOrEqual(cap);
    expect(store.total - leases.unused('k1', NOW)).toBe(sent); // the store's count less the lease is what was sent
    // 1% of the cap per lease: about 100 grants (and a trim at the cap) for 3,333 responses. Past
    // the cap each refusal asks the store again (a replica's shutdown may have handed bytes back).
    expect(callsToTheCap).toBeLessThan(110);
  });

  it('never lets replicas together send past the cap, and refuses early by at most the leases others hold', async () => {
    const store = new SharedCount();
    const replicas = [new ByteLeases(store), new ByteLeases(store), new ByteLeases(store)];
    const cap = 500_000;
    const sizes = [120, 900, 4_000, 37, 2_500];
    let sent = 0;
    await Promise.all(
      replicas.map(async (leases, r) => {
        for (let i = 0; i < 400; i++) {
          const size = sizes[(i + r) % sizes.length];
          // Concurrent requests on each replica too.
          const answers = await Promise.all([
            leases.spend('k1', size, cap, NOW),
            leases.spend('k1', size, cap, NOW),
          ]);
          sent += answers.filter(Boolean).length * size;
        }
      }),
    );
    expect(sent).toBeLessThanOrEqual(cap);
    expect(store.total).toBeLessThanOrEqual(cap);
    const heldBack = replicas.reduce((sum, leases) => sum + leases.unused('k1', NOW), 0);
    expect(store.total - heldBack).toBe(sent);
    expect(heldBack).toBeLessThanOrEqual(replicas.length * (cap / 100 + Math.max(...sizes)));
    expect(sent).toBeGreaterThan(cap - replicas.length * (cap / 100 + Math.max(...sizes)));
    // At shutdown the leases go back: the store counts exactly what was sent.
    await Promise.all(replicas.map((leases) => leases.release(NOW)));
    expect(store.total).toBe(sent);
  });

  it('leases at most 1 MiB, counts error answers from the lease, and starts afresh each UTC day', async () => {
    const store = new SharedCount();
    const leases = new ByteLeases(store);
    expect(await leases.spend('k1', 1000, 500_000_000, NOW)).toBe(true);
    expect(store.total).toBe(1000 + MAX_LEASE_BYTES);
    expect(leases.unused('k1', NOW)).toBe(MAX_LEASE_BYTES);
    await leases.count('k1', 200, NOW); // an error body: no store call while the lease covers it
    expect([store.calls, leases.unused('k1', NOW)]).toEqual([1, MAX_LEASE_BYTES - 200]);
    const tomorrow = new Date('2026-11-26T00:00:01.000Z');
    expect(leases.unused('k1', tomorrow)).toBe(0);
    expect(await leases.spend('k1', 10, 500_000_000, tomorrow)).toBe(true);
    expect(store.calls).toBe(2);
  });

  it('refuses a body bigger than what is left, counting nothing for it', async () => {
    const store = new SharedCount();
    const leases = new ByteLeases(store);
    expect(await leases.spend('k1', 9_000, 10_000, NOW)).toBe(true);
    expect(await leases.spend('k1', 2_000, 10_000, NOW)).toBe(false);
    expect(store.total - leases.unused('k1', NOW)).toBe(9_000);
    expect(await leases.spend('k1', 1_000, 10_000, NOW)).toBe(true); // exactly to the cap
    expect(store.total).toBe(10_000);
  });
});

describe('RateLimitService.spendBytesNow: the byte cap without a promise where it can be decided at once', () => {
  it('in-process counters: exact, and a body past the cap is refused with nothing counted', async () => {
    const counters = new MemoryRateCounters();
    const limits = new RateLimitService(counters);
    expect(limits.spendBytesNow('k1', 600, 1_000, NOW)).toBe(true);
    expect(limits.spendBytesNow('k1', 500, 1_000, NOW)).toBe(false);
    expect(await counters.addBytes('k1', 0, NOW)).toBe(600);
    expect(limits.spendBytesNow('k1', 400, 1_000, NOW)).toBe(true); // exactly to the cap
    expect(limits.countBytesNow('k1', 90, NOW)).toBe(true); // an error body counts whatever the cap
    expect(await counters.addBytes('k1', 0, NOW)).toBe(1_090);
  });

  it('shared counters: only what the lease covers, else null (the caller waits on the store), nothing counted', async () => {
    const store = new SharedCount();
    const shared = Object.assign(new MemoryRateCounters(), {
      shared: true,
      addBytes: store.addBytes.bind(store),
    });
    delete (shared as { addBytesNow?: unknown }).addBytesNow;
    const limits = new RateLimitService(shared);
    expect(limits.spendBytesNow('k1', 300, 1_000_000, NOW)).toBeNull();
    expect(limits.countBytesNow('k1', 300, NOW)).toBe(false);
    expect(store.calls).toBe(0);
    expect(await limits.spendBytes('k1', 300, 1_000_000, NOW)).toBe(true); // takes a lease of 10,000 + 300
    expect([store.calls, store.total]).toEqual([1, 10_300]);
    expect(limits.spendBytesNow('k1', 9_000, 1_000_000, NOW)).toBe(true);
    expect(limits.countBytesNow('k1', 1_000, NOW)).toBe(true);
    expect(limits.spendBytesNow('k1', 1, 1_000_000, NOW)).toBeNull(); // the lease is spent
    expect(store.calls).toBe(1);
  });
});
