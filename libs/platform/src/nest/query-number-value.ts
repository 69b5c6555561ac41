import { DECIMAL_TEXT } from './query-number-rules';

/**
 * The number a query value holds when IsQueryNumber(min, max) accepts it, else null: for a rule
 * that compares two parameters (`min_score` not above `max_score`) and judges only values the
 * number rule let through, so one bad value is reported once.
 */
export function acceptedQueryNumber(value: unknown, min: number, max: number): number | null {
  if (typeof value !== 'string' || !DECIMAL_TEXT.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}
