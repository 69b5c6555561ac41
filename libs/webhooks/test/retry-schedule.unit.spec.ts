import {
  backoffCeilingMs,
  DEFAULT_RETRY_POLICY,
  deliveryJitter,
  nextDeliveryStep,
  retryDelayMs,
  type AttemptRecord,
} from '../src';

const HOUR = 3600 * 1000;
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const failed = (ms: number): AttemptRecord => ({ at: at(ms), outcome: 'failed' });
const delivered = (ms: number): AttemptRecord => ({ at: at(ms), outcome: 'delivered' });

/** Every attempt of a delivery whose receiver never answers 2xx, as the schedule places them. */
function attemptsUntilGivenUp(deliveryId: string): AttemptRecord[] {
  const attempts = [failed(T0)];
  for (;;) {
    const step = nextDeliveryStep(attempts, deliveryJitter(deliveryId));
    if (step.kind !== 'retry') return attempts;
    expect(step.attempt).toBe(attempts.length + 1);
    attempts.push({ at: step.at, outcome: 'failed' });
  }
}

describe('retry schedule', () => {
  it('the ceiling doubles from 30 s per failure and is capped at 6 h', () => {
    expect([1, 2, 3, 4, 10, 11, 12, 1000].map((n) => backoffCeilingMs(n))).toEqual([
      30_000,
      60_000,
      120_000,
      240_000,
      15_360_000,
      6 * HOUR,
      6 * HOUR,
      6 * HOUR,
    ]);
  });

  it('full jitter: the delay is the jitter times the ceiling, never under 1 s', () => {
    expect(retryDelayMs(1, () => 0)).toBe(1_000);
    expect(retryDelayMs(1, () => 0.5)).toBe(15_000);
    expect(retryDelayMs(3, () => 0.25)).toBe(30_000);
    expect(retryDelayMs(20, () => 0.999999)).toBe(Math.floor(0.999999 * 6 * HOUR));
  });

  it("a delivery's jitter is fixed by its id and attempt, and spreads deliveries across the whole range", () => {
    expect(deliveryJitter('dl_1')(3)).toBe(deliveryJitter('dl_1')(3));
    expect(deliveryJitter('dl_1')(3)).not.toBe(deliveryJitter('dl_1')(4));
    const delays = Array.from({ length: 1000 }, (_, i) => retryDelayMs(3, deliveryJitter(`dl_${i}`)));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...delays)).toBeLessThan(120_000);
    // Full jitter, not equal jitter: a tenth of the deliveries retry in the first tenth of the range.
    const early = delays.filter((d) => d < 12_000).length;
    const late = delays.filter((d) => d >= 108_000).length;
    expect(early).toBeGreaterThan(60);
    expect(late).toBeGreaterThan(60);
  });

  it('is done at the first delivered attempt, whatever order the attempts come in', () => {
    const jitter = deliveryJitter('dl_x');
    expect(nextDeliveryStep([failed(T0 + 60_000), delivered(T0 + 90_000), failed(T0)], jitter)).toEqual({
      kind: 'delivered',
      at: at(T0 + 90_000),
    });
  });

  it('retries after the jittered backoff from the last attempt', () => {
    const jitter = () => 0.5;
    expect(nextDeliveryStep([failed(T0)], jitter)).toEqual({
      kind: 'retry',
      at: at(T0 + 15_000),
      attempt: 2,
    });
    expect(nextDeliveryStep([failed(T0), failed(T0 + 20_000)], jitter)).toEqual({
      kind: 'retry',
      at: at(T0 + 20_000 + 30_000),
      attempt: 3,
    });
  });

  it('places the last attempt at 72 h from the first at the latest, then gives up', () => {
    for (const id of ['dl_a', 'dl_b', 'dl_c']) {
      const attempts = attemptsUntilGivenUp(id);
      const times = attempts.map((a) => Date.parse(a.at));
      expect(times[times.length - 1]).toBe(T0 + 72 * HOUR);
      for (let i = 1; i < times.length; i++) {
        expect(times[i]).toBeGreaterThan(times[i - 1]);
        expect(times[i] - times[i - 1]).toBeLessThanOrEqual(6 * HOUR);
      }
      expect(attempts.length).toBeGreaterThan(15);
      expect(attempts.length).toBeLessThan(80);
      expect(nextDeliveryStep(attempts, deliveryJitter(id))).toEqual({
        kind: 'given_up',
        at: at(T0 + 72 * HOUR),
        attempts: attempts.length,
      });
    }
  });

  it('an attempt made past the end (a notifier that was down) gives up without another', () => {
    expect(nextDeliveryStep([failed(T0), failed(T0 + 80 * HOUR)], () => 0.5)).toEqual({
      kind: 'given_up',
      at: at(T0 + 80 * HOUR),
      attempts: 2,
    });
  });

  it('needs an attempt to schedule from', () => {
    expect(() => nextDeliveryStep([], () => 0.5)).toThrow('at least one attempt');
  });

  it('the default policy is the one the figures name', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      baseDelayMs: 30_000,
      maxDelayMs: 6 * HOUR,
      minDelayMs: 1_000,
      giveUpAfterMs: 72 * HOUR,
    });
  });
});
