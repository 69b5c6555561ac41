import { parseCalendarInstant } from '../src';

describe('parseCalendarInstant', () => {
  it.each([
    ['2026-02-28', Date.UTC(2026, 1, 28)],
    ['2028-02-29', Date.UTC(2028, 1, 29)],
    ['2026-04-30T23:59:59Z', Date.UTC(2026, 3, 30, 23, 59, 59)],
    ['2026-04-30T10:00', Date.UTC(2026, 3, 30, 10)],
    ['2026-04-30 10:00:05.250Z', Date.UTC(2026, 3, 30, 10, 0, 5, 250)],
    ['2026-04-30T10:00:00+02:00', Date.UTC(2026, 3, 30, 8)],
    ['2026-04-30T10:00:00-0130', Date.UTC(2026, 3, 30, 11, 30)],
  ])('%s is %d', (text, ms) => {
    expect(parseCalendarInstant(text)).toBe(ms);
  });

  it.each([
    '2026-02-29',
    '2026-02-30',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-01-01T24:00',
    '2026-01-01T10:60',
    '2026-01-01T10:00:61Z',
    '26-01-01',
    'yesterday',
    '',
    '2026-01-01T10:00+25:00',
  ])('rejects %p', (text) => {
    expect(parseCalendarInstant(text)).toBeNull();
  });

  it('a bare date ends at the last millisecond of its UTC day with endOfDay', () => {
    expect(parseCalendarInstant('2026-03-10', { endOfDay: true })).toBe(Date.UTC(2026, 2, 11) - 1);
    expect(parseCalendarInstant('2026-03-10T05:00Z', { endOfDay: true })).toBe(Date.UTC(2026, 2, 10, 5));
  });
});
