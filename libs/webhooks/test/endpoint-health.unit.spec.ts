import {
  deliveryJitter,
  endpointHealthOf,
  NEW_ENDPOINT_HEALTH,
  nextDeliveryStep,
  recordEndpointAttempt,
  shouldDisableEndpoint,
  type AttemptRecord,
} from '../src';

const HOUR = 3600 * 1000;
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const failed = (ms: number): AttemptRecord => ({ at: at(ms), outcome: 'failed' });
const delivered = (ms: number): AttemptRecord => ({ at: at(ms), outcome: 'delivered' });

/** Every attempt of a delivery whose receiver never answers 2xx, as the retry schedule places them. */
function attemptsUntilGivenUp(deliveryId: string): AttemptRecord[] {
  const attempts = [failed(T0)];
  for (;;) {
    const step = nextDeliveryStep(attempts, deliveryJitter(deliveryId));
    if (step.kind !== 'retry') return attempts;
    attempts.push({ at: step.at, outcome: 'failed' });
  }
}

describe('endpoint disabling', () => {
  it('an endpoint failing for 72 h is disabled, not at 71 h 59 min', () => {
    const almost = endpointHealthOf([failed(T0), failed(T0 + 30 * HOUR), failed(T0 + 72 * HOUR - 60_000)]);
    expect(shouldDisableEndpoint(almost)).toBe(false);
    const three = recordEndpointAttempt(almost, failed(T0 + 72 * HOUR));
    expect(three).toEqual({ lastDeliveredAt: null, failingSince: at(T0), lastFailedAt: at(T0 + 72 * HOUR) });
    expect(shouldDisableEndpoint(three)).toBe(true);
  });

  it('a delivered attempt ends the streak; the next failure starts a new one', () => {
    const health = endpointHealthOf([
      failed(T0),
      failed(T0 + 50 * HOUR),
      delivered(T0 + 60 * HOUR),
      failed(T0 + 70 * HOUR),
      failed(T0 + 100 * HOUR),
    ]);
    expect(health).toEqual({
      lastDeliveredAt: at(T0 + 60 * HOUR),
      failingSince: at(T0 + 70 * HOUR),
      lastFailedAt: at(T0 + 100 * HOUR),
    });
    expect(shouldDisableEndpoint(health)).toBe(false);
    expect(shouldDisableEndpoint(recordEndpointAttempt(health, failed(T0 + 142 * HOUR)))).toBe(true);
  });

  it('one delivery failing until it is given up disables its endpoint at that last attempt', () => {
    const attempts = attemptsUntilGivenUp('dl_z');
    const beforeLast = endpointHealthOf(attempts.slice(0, -1));
    expect(shouldDisableEndpoint(beforeLast)).toBe(false);
    expect(shouldDisableEndpoint(endpointHealthOf(attempts))).toBe(true);
  });

  it('attempts recorded out of order: an older failure is ignored, an older delivery keeps the later failure', () => {
    const afterDelivery = recordEndpointAttempt(endpointHealthOf([delivered(T0 + 10 * HOUR)]), failed(T0));
    expect(afterDelivery).toEqual({
      lastDeliveredAt: at(T0 + 10 * HOUR),
      failingSince: null,
      lastFailedAt: null,
    });
    const late = recordEndpointAttempt(
      endpointHealthOf([failed(T0), failed(T0 + 20 * HOUR)]),
      delivered(T0 + HOUR),
    );
    expect(late).toEqual({
      lastDeliveredAt: at(T0 + HOUR),
      failingSince: at(T0 + 20 * HOUR),
      lastFailedAt: at(T0 + 20 * HOUR),
    });
    expect(
      recordEndpointAttempt(endpointHealthOf([failed(T0 + 5 * HOUR)]), failed(T0 + 2 * HOUR)).failingSince,
    ).toBe(at(T0 + 2 * HOUR));
    expect(NEW_ENDPOINT_HEALTH).toEqual({ lastDeliveredAt: null, failingSince: null, lastFailedAt: null });
  });
});
