import { ApiError } from '@analyst/contracts';

// One reading of numbers in query strings for every route, the grammar of a JSON number (what the
// OpenAPI document's `type: number` / `integer` promise): an integer is decimal digits only, so
// "0x10", "1e2", "+5", " 5" and "1.0" are refused; a number may have a fraction and an exponent
// ("7.5", "1e-3") but not hex, a leading "+", spaces or "Infinity".
const INTEGER = /^-?(?:0|[1-9]\d*)$/;
const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The one query value of `name` as text: a repeated parameter is refused. */
function text(value: unknown, name: string, code: string): string {
  if (typeof value !== 'string') throw new ApiError(400, `${name} must be given once`, code);
  return value;
}

/** The query value of `name` if `grammar` reads it and it is from `min` to `max`; 400 (`code`) saying it must be `expected` otherwise. */
function boundedNumber(
  value: unknown,
  name: string,
  accepted: { grammar: RegExp; min: number; max: number; expected: string },
  code = 'invalid_request',
): number {
  const raw = text(value, name, code);
  const n = Number(raw);
  if (!accepted.grammar.test(raw) || n < accepted.min || n > accepted.max)
    throw new ApiError(400, `${name} must be ${accepted.expected}, got "${raw}"`, code);
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
