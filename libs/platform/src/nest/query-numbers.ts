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

/** An integer query parameter from `min` to `max`; 400 (`code`) naming it otherwise. */
export function queryInteger(
  value: unknown,
  name: string,
  min: number,
  max: number,
  code = 'invalid_request',
): number {
  const raw = text(value, name, code);
  const n = Number(raw);
  if (!INTEGER.test(raw) || n < min || n > max)
    throw new ApiError(
      400,
      `${name} must be an integer from ${min} to ${max} written in decimal digits, got "${raw}"`,
      code,
    );
  return n;
}

/** A number query parameter from `min` to `max` ("7", "7.5", "1e-3"); 400 (`code`) naming it otherwise. */
export function queryNumber(
  value: unknown,
  name: string,
  min: number,
  max: number,
  code = 'invalid_request',
): number {
  const raw = text(value, name, code);
  const n = Number(raw);
  if (!DECIMAL.test(raw) || n < min || n > max)
    throw new ApiError(
      400,
      `${name} must be a number from ${min} to ${max} (JSON number syntax), got "${raw}"`,
      code,
    );
  return n;
}
