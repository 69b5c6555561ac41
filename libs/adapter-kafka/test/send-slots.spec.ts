import { SendSlots } from '../src/send-slots';

describe('send slots', () => {
  it('lets `size` holders in at once and hands each release to the longest waiter', async () => {
    const slots = new SendSlots(2);
    const started: number[] = [];
    const holders = [0, 1, 2, 3, 4].map((i) => slots.acquire().then(() => void started.push(i)));
    await Promise.resolve();
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    slots.release();
    await holders[2];
    expect(started).toEqual([0, 1, 2]);
    slots.release();
    slots.release();
    await Promise.all(holders);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    // Holders 3 and 4 release: two free slots, taken at once; a third caller waits.
    slots.release();
    slots.release();
    const taken: number[] = [];
    void slots.acquire().then(() => void taken.push(5));
    void slots.acquire().then(() => void taken.push(6));
    void slots.acquire().then(() => void taken.push(7));
    await new Promise((r) => setImmediate(r));
    expect(taken).toEqual([5, 6]);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new SendSlots(0)).toThrow('send slots must be a positive integer, got 0');
    expect(() => new SendSlots(1.5)).toThrow('send slots must be a positive integer, got 1.5');
  });
});
