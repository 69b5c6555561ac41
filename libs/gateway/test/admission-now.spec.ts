import { effectiveLimits, type RateClassId } from '@analyst/domain-identity';
import {
  MemoryRateCounters,
  RateLimitService,
  rateLimitHeaders,
  setRateLimitHeaders,
  type Admission,
  type RateCounters,
} from '@analyst/gateway';

/**
 * Standalone admission decides in the same turn (counters in this process); everywhere else it
 * takes a promise. Both must answer alike: the same admission, the same counts left behind, the
 * same headers.
 */
describe('admission without a promise answers as admission with one', () => {
  const now = new Date('2026-03-10T12:00:23.000Z');
  /** Small caps, so every way of refusing is reached in a few requests. */
  const limits = effectiveLimits({
    limits: { global: { perMinute: 6, perDay: 9 }, comments: { perMinute: 2, perDay: 3 } },
    dailyBytes: 1_000,
  });
  /** The same counters seen only through the promise-returning methods (as MongoRateCounters offers). */
  const asyncOnly = (inner: MemoryRateCounters): RateCounters => ({
    shared: false,
    charge: (...a) => inner.charge(...a),
    refund: (...a) => inner.refund(...a),
    read: (...a) => inner.read(...a),
    addBytes: (...a) => inner.addBytes(...a),
    authFailures: (...a) => inner.authFailures(...a),
    recordAuthFailure: (...a) => inner.recordAuthFailure(...a),
  });

  it('decides now only over counters that answer now', () => {
    expect(new RateLimitService(new MemoryRateCounters()).decidesNow).toBe(true);
    expect(new RateLimitService(asyncOnly(new MemoryRateCounters())).decidesNow).toBe(false);
  });

  it('admits and refuses the same requests, with the same snapshots, trips and counts left', async () => {
    const syncCounters = new MemoryRateCounters();
    const asyncCounters = new MemoryRateCounters();
    const now_ = new RateLimitService(syncCounters);
    const later = new RateLimitService(asyncOnly(asyncCounters));
    // Comments to its burst cap, global to its burst cap and (next minute) its daily budget, then the byte cap.
    const classes: RateClassId[] = [
      'comments',
      'comments',
      'comments',
      'global',
      'global',
      'global',
      'global',
    ];
    const seen: Admission[] = [];
    for (const rateClass of classes) {
      const a = now_.admitNow('ak_k', rateClass, limits, now);
      const b = await later.admit('ak_k', rateClass, limits, now);
      expect(a).toEqual(b);
      seen.push(a);
    }
    const later2 = new Date('2026-03-10T12:01:10.000Z');
    for (const rateClass of ['global', 'global', 'global', 'comments'] as RateClassId[]) {
      const a = now_.admitNow('ak_k', rateClass, limits, later2);
      const b = await later.admit('ak_k', rateClass, limits, later2);
      expect(a).toEqual(b);
      seen.push(a);
    }
    await syncCounters.addBytes('ak_k', 1_000, later2);
    await asyncCounters.addBytes('ak_k', 1_000, later2);
    const a = now_.admitNow('ak_k', 'comments', limits, later2);
    expect(a).toEqual(await later.admit('ak_k', 'comments', limits, later2));
    seen.push(a);
    expect(await syncCounters.read('ak_k', later2)).toEqual(await asyncCounters.read('ak_k', later2));

    // Every kind of answer was reached: admitted, a class burst cap, the global daily budget, the byte cap.
    const outcome = (x: Admission) => (x.admitted ? 'admitted' : `${x.trip.kind} ${x.trip.rateClass}`);
    expect(seen.map(outcome)).toEqual([
      'admitted',
      'admitted',
      'burst comments',
      'admitted',
      'admitted',
      'admitted',
      'burst global',
      'admitted',
      'admitted',
      'daily global',
      'daily global',
      'bytes comments',
    ]);
    const refused = seen[2];
    expect(refused.admitted).toBe(false);
    // A refusal hands back its class's charge: the snapshot shows the class as it stands after.
    expect(refused.snapshot.routeClass).toEqual({
      perMinute: 2,
      perDay: 3,
      remainingPerMinute: 0,
      remainingPerDay: 1,
    });
  });

  it('counts failed authentications alike', async () => {
    const counters = new MemoryRateCounters();
    const service = new RateLimitService(counters, { ANALYST_AUTH_FAILURES_PER_MINUTE: 2 } as never);
    expect(service.authBlockedNow('10.0.0.1', now)).toBeNull();
    service.recordAuthFailureNow('10.0.0.1', now);
    await service.recordAuthFailure('10.0.0.1', now);
    expect(service.authBlockedNow('10.0.0.1', now)).toBe(37);
    expect(await service.authBlocked('10.0.0.1', now)).toBe(37);
    expect(await counters.authFailures('10.0.0.1', now)).toBe(2);
  });

  it('writes the rate headers onto a reply as rateLimitHeaders names them, in the same order', () => {
    const service = new RateLimitService(new MemoryRateCounters());
    for (const rateClass of ['global', 'comments'] as RateClassId[]) {
      const { snapshot } = service.admitNow('ak_h', rateClass, limits, now);
      const written: [string, string][] = [];
      setRateLimitHeaders({ header: (name, value) => written.push([name, value]) }, snapshot);
      expect(written).toEqual(
        Object.entries(rateLimitHeaders(snapshot)).map(([name, value]) => [name.toLowerCase(), value]),
      );
    }
    const { snapshot } = service.admitNow('ak_h', 'comments', limits, now);
    expect(rateLimitHeaders(snapshot)).toEqual({
      'X-RateLimit-Limit': '6',
      'X-RateLimit-Remaining': '3',
      'X-RateLimit-Reset': '37',
      'X-RateLimit-Daily-Limit': '9',
      'X-RateLimit-Daily-Remaining': '6',
      'X-RateLimit-Class': 'comments',
      'X-RateLimit-Class-Limit': '2',
      'X-RateLimit-Class-Remaining': '0',
      'X-RateLimit-Class-Daily-Limit': '3',
      'X-RateLimit-Class-Daily-Remaining': '1',
      'X-RateLimit-Bytes-Remaining': '1000',
      'RateLimit-Policy':
        '"global-minute";q=6;w=60, "global-day";q=9;w=86400, "comments-minute";q=2;w=60, "comments-day";q=3;w=86400',
      RateLimit:
        '"global-minute";r=3;t=37, "global-day";r=6;t=43177, "comments-minute";r=0;t=37, "comments-day";r=1;t=43177',
    });
  });
});
