const PACIFIC = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Los_Angeles',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Milliseconds Pacific wall-clock time is ahead of UTC at `at` (negative: -7 or -8 hours). */
function pacificOffsetMs(at: Date): number {
  const parts = Object.fromEntries(PACIFIC.formatToParts(at).map((p) => [p.type, p.value]));
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The YouTube Data API's daily quota resets at midnight Pacific time: the next such instant after `now`. */
export function nextQuotaReset(now: Date): Date {
  const parts = Object.fromEntries(PACIFIC.formatToParts(now).map((p) => [p.type, p.value]));
  const midnightWall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day) + 1);
  // The offset at the target instant, not now: the day may cross a daylight-saving change.
  const guess = midnightWall - pacificOffsetMs(now);
  return new Date(midnightWall - pacificOffsetMs(new Date(guess)));
}
