/** The UTC month (`YYYY-MM`) an instant falls in: the unit MAPs are allotted and expired by. */
export function monthOf(at: string | Date): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${String(at)}`);
  return date.toISOString().slice(0, 7);
}

/** Id of the reset that opens `month`: at most one per month, so it is idempotent by construction. */
export function mapsResetCommandId(month: string): string {
  return `maps-reset-${month}`;
}

/** The first instant of the UTC month after the one `at` falls in: when the next MAP reset is due. */
export function startOfNextMonth(at: string | Date): Date {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${String(at)}`);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
}
