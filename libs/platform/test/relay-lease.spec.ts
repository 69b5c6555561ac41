import { FixedClock, MemoryReadStore, MongoReadStore, RelayLease, type ReadStore } from '@analyst/platform';
import { unique } from '@analyst/testing';

const stores: [string, () => Promise<ReadStore>][] = [['in-memory', async () => new MemoryReadStore()]];
if (process.env.MONGO_URL) stores.push(['MongoDB', () => MongoReadStore.connect(process.env.MONGO_URL!, unique('analyst_lease_'))]);

describe.each(stores)('relay lease on %s', (_name, open) => {
  it('lets one holder in, keeps the other waiting, and hands over when the holder stops renewing', async () => {
    const store = await open();
    const clock = new FixedClock('2026-05-01T00:00:00.000Z');
    const a = new RelayLease(store, clock, 'relay-a', 'relay', 10_000);
    const b = new RelayLease(store, clock, 'relay-b', 'relay', 10_000);
    expect(await a.tryAcquire()).toBe(true);
    expect(await b.tryAcquire()).toBe(false);
    clock.advance(5_000);
    expect(await a.tryAcquire()).toBe(true); // renewal
    clock.advance(9_000);
    expect(await b.tryAcquire()).toBe(false); // renewed 9 s ago, still live
    clock.advance(2_000);
    expect(await b.tryAcquire()).toBe(true); // a went quiet for 11 s
    expect(await a.tryAcquire()).toBe(false);
    await b.release();
    expect(await a.tryAcquire()).toBe(true);
    await store.close();
  });
});
