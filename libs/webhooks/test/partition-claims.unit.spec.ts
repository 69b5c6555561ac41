import { FixedClock } from '@analyst/eventsourcing';
import { InMemoryPartitionClaims, deliveryId, partitionOf } from '../src';

const partitionsOf = async (claims: InMemoryPartitionClaims, holder: string) =>
  (await claims.refresh(holder)).map((h) => h.partition);

describe('in-memory partition claims', () => {
  let clock: FixedClock;
  let claims: InMemoryPartitionClaims;
  beforeEach(() => {
    clock = new FixedClock('2026-03-10T12:00:00.000Z');
    claims = new InMemoryPartitionClaims(8, clock, 10_000);
  });

  it('a lone replica holds every partition; a second gets half within two refreshes, never overlapping', async () => {
    expect(await partitionsOf(claims, 'a')).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await partitionsOf(claims, 'b')).toEqual([]); // all held: it waits for a to give some back
    expect(await partitionsOf(claims, 'a')).toEqual([0, 1, 2, 3]);
    expect(await partitionsOf(claims, 'b')).toEqual([4, 5, 6, 7]);
    expect(await partitionsOf(claims, 'a')).toEqual([0, 1, 2, 3]);
  });

  it("a silent replica's partitions go to the others once its claims lapse, with their checkpoints", async () => {
    await partitionsOf(claims, 'a');
    await partitionsOf(claims, 'b');
    await partitionsOf(claims, 'a');
    await partitionsOf(claims, 'b');
    expect(await claims.saveCheckpoint('b', 5, 42)).toBe(true);
    clock.advance(6_000);
    expect(await partitionsOf(claims, 'a')).toEqual([0, 1, 2, 3]); // b's claims still live
    clock.advance(6_000);
    const held = await claims.refresh('a');
    expect(held.map((h) => h.partition)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(held.find((h) => h.partition === 5)!.checkpoint).toBe(42);
    expect(await claims.saveCheckpoint('b', 5, 50)).toBe(false); // b lost it: its write moves nothing
  });

  it('a checkpoint never moves back; release hands everything over at once', async () => {
    await claims.refresh('a');
    expect(await claims.saveCheckpoint('a', 0, 10)).toBe(true);
    expect(await claims.saveCheckpoint('a', 0, 7)).toBe(true);
    await claims.release('a');
    const held = await claims.refresh('b');
    expect(held).toHaveLength(8);
    expect(held[0]).toEqual({ partition: 0, checkpoint: 10 });
  });
});

describe('delivery ids and partitions', () => {
  it('are the same for the same (endpoint, event) on every call', () => {
    expect(deliveryId('we_00000001', 'evt_000001')).toBe('dlv_we_00000001_evt_000001');
    expect(partitionOf('we_00000001', 8)).toBe(partitionOf('we_00000001', 8));
  });
  it('spread endpoints over the partitions', () => {
    const counts = Array(16).fill(0);
    for (let i = 0; i < 1600; i++) counts[partitionOf(`we_${String(i).padStart(8, '0')}`, 16)]++;
    expect(Math.min(...counts)).toBeGreaterThan(60);
    expect(Math.max(...counts)).toBeLessThan(140);
  });
});
