/** Fixed UTC windows: counters are keyed by the bucket, so a window always starts on a UTC boundary. */
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export function minuteBucket(now: Date): number {
  return Math.floor(now.getTime() / MINUTE_MS);
}

export function dayBucket(now: Date): number {
  return Math.floor(now.getTime() / DAY_MS);
}

let lastDay = { bucket: Number.NaN, text: '' };

/** `YYYY-MM-DD` of the UTC day. */
export function utcDay(now: Date): string {
  // Every request asks (usage is counted per day); the string changes once a day.
  const day = dayBucket(now);
  if (day !== lastDay.bucket) lastDay = { bucket: day, text: now.toISOString().slice(0, 10) };
  return lastDay.text;
}

/** Whole seconds until the next UTC minute starts (1 to 60). */
export function secondsUntilNextMinute(now: Date): number {
  return Math.max(1, Math.ceil(((minuteBucket(now) + 1) * MINUTE_MS - now.getTime()) / 1000));
}

/** Whole seconds until UTC midnight (1 to 86,400). */
export function secondsUntilMidnight(now: Date): number {
  return Math.max(1, Math.ceil(((dayBucket(now) + 1) * DAY_MS - now.getTime()) / 1000));
}

/** The last `count` UTC days, newest first, as `YYYY-MM-DD`. */
export function lastUtcDays(now: Date, count: number): string[] {
  const today = dayBucket(now);
  return Array.from({ length: count }, (_, i) => new Date((today - i) * DAY_MS).toISOString().slice(0, 10));
}
