import { ApiError } from '@analyst/contracts';
import { DECIMAL_TEXT as DECIMAL, INTEGER_TEXT as INTEGER, queryNumberMessage } from './query-number-rules';

/** The query value of `name` if `grammar` reads it and it is from `min` to `max`; 400 (`code`) saying it must be `expected` otherwise. */
function boundedNumber(
  value: unknown,
  name: string,
  accepted: { grammar: RegExp; min: number; max: number; expected: string },
  code = 'invalid_request',
): number {
  const n = Number(value);
  if (typeof value !== 'string' || !accepted.grammar.test(value) || n < accepted.min || n > accepted.max)
    throw new ApiError(400, queryNumberMessage(value, name, accepted.expected), code);
  return n;
}

/** An integer query parameter from `min` to `max`; 400 (`code`, default `invalid_request`) naming it otherwise. */
export function queryInteger(value: unknown, name: string, min: number, max: number, code?: string): number {
  const expected = `an integer from ${min} to ${max} written in decimal digits`;
  return boundedNumber(value, name, { grammar: INTEGER, min, max, expected }, code);
}

/** A number query parameter from `min` to `max` ("7", "7.5", "1e-3"); 400 (`code`, default `invalid_request`) naming it otherwise. */
export function queryNumber(value: unknown, name: string, min: number, max: number, code?: string): number {
  const expected = `a number from ${min} to ${max} (JSON number syntax)`;
  return boundedNumber(value, name, { grammar: DECIMAL, min, max, expected }, code);
}
