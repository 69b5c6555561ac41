import { PeriodicTask } from '@analyst/platform';

describe('PeriodicTask', () => {
  it('runs on demand and on schedule, never two runs at once, reports a failing run and keeps going, and stop() waits for the run in flight', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const errors: string[] = [];
    const task = new PeriodicTask(
      20,
      async () => {
        runs += 1;
        active += 1;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setTimeout(r, 30)); // longer than the interval: runs must queue, not overlap
        active -= 1;
        if (runs === 2) throw new Error('second run fails');
      },
      (error) => errors.push(String(error)),
    );
    task.start(true);
    task.trigger();
    await new Promise((r) => setTimeout(r, 150));
    await task.stop();
    const afterStop = runs;
    expect(active).toBe(0);
    expect(maxActive).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(errors).toEqual(['Error: second run fails']);
    await new Promise((r) => setTimeout(r, 60));
    expect(runs).toBe(afterStop);
  });
});
