import { lastUtcDays, secondsUntilMidnight, secondsUntilNextMinute } from '@analyst/domain-identity';

describe('UTC windows', () => {
  it('counts whole seconds to the next minute and to midnight', () => {
    expect(secondsUntilNextMinute(new Date('2026-03-10T12:00:00.000Z'))).toBe(60);
    expect(secondsUntilNextMinute(new Date('2026-03-10T12:00:59.500Z'))).toBe(1);
    expect(secondsUntilNextMinute(new Date('2026-03-10T12:00:23.000Z'))).toBe(37);
    expect(secondsUntilMidnight(new Date('2026-03-10T12:00:00.000Z'))).toBe(43200);
    expect(secondsUntilMidnight(new Date('2026-03-10T23:59:59.999Z'))).toBe(1);
  });

  it('lists the last days newest first', () => {
    expect(lastUtcDays(new Date('2026-03-01T05:00:00Z'), 3)).toEqual([
      '2026-03-01',
      '2026-02-28',
      '2026-02-27',
    ]);
  });
});
