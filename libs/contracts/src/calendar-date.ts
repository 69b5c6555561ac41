const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Parses `YYYY-MM-DD` or an ISO 8601 date-time (UTC unless a zone is given) to epoch ms, or null
 * when the text is not one, including dates the calendar does not have: `Date.parse` would roll
 * 2026-02-30 over to 2026-03-02 and shift the caller's window without a word. A bare date is the
 * start of that UTC day, or its last millisecond with `endOfDay`.
 */
export function parseCalendarInstant(text: string, options: { endOfDay?: boolean } = {}): number | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isCalendarDay(year, month, day)) return null;
  if (m[4] === undefined) return Date.UTC(year, month - 1, day) + (options.endOfDay ? 86_400_000 - 1 : 0);
  return parseDateTime(m);
}

/** Whether the calendar has this day: a month 1 to 12, a day within that month of that year. */
function isCalendarDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A matched date-time to epoch ms, or null for a time the clock does not have. */
function parseDateTime(m: RegExpExecArray): number | null {
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.parse(
    `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}${withColon(m[8] ?? 'Z')}`,
  );
  return Number.isNaN(ms) ? null : ms;
}

/** A zone as Date.parse reads it: `+0100` becomes `+01:00`; `Z` and `+01:00` stay. */
function withColon(zone: string): string {
  return zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
}
