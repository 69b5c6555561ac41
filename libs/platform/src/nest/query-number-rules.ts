import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';

// One reading of numbers in query strings for every route, the grammar of a JSON number (what the
// OpenAPI document's `type: number` / `integer` promise): an integer is decimal digits only, so
// "0x10", "1e2", "+5", " 5" and "1.0" are refused; a number may have a fraction and an exponent
// ("7.5", "1e-3") but not hex, a leading "+", spaces or "Infinity".
const INTEGER_TEXT = /^-?(?:0|[1-9]\d*)$/;
const DECIMAL_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

interface Accepted {
  grammar: RegExp;
  min: number;
  max: number;
  expected: string;
}

/** What a query value of this shape is refused with, naming the parameter. */
function queryNumberMessage(value: unknown, name: string, expected: string): string {
  return typeof value === 'string'
    ? `${name} must be ${expected}, got "${value}"`
    : `${name} must be given once`;
}

function acceptedNumber(value: unknown, accepted: Pick<Accepted, 'grammar' | 'min' | 'max'>): number | null {
  if (typeof value !== 'string' || !accepted.grammar.test(value)) return null;
  const n = Number(value);
  return n >= accepted.min && n <= accepted.max ? n : null;
}

/**
 * The number a query value holds when IsQueryNumber(min, max) accepts it, else null: for a rule
 * that compares two parameters (`min_score` not above `max_score`) and judges only values the
 * number rule let through, so one bad value is reported once.
 */
export function acceptedQueryNumber(value: unknown, min: number, max: number): number | null {
  return acceptedNumber(value, { grammar: DECIMAL_TEXT, min, max });
}

function numberRule(name: string, accepted: Accepted, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name,
      constraints: [accepted.min, accepted.max],
      validator: {
        validate: (value: unknown) => acceptedNumber(value, accepted) !== null,
        defaultMessage: (args?: ValidationArguments) =>
          queryNumberMessage(args?.value, args?.property ?? 'value', accepted.expected),
      },
    },
    options,
  );
}

/**
 * A query parameter (text) holding an integer from `min` to `max` in decimal digits, given once.
 * `options` as for any class-validator rule (e.g. `validateIf`, when a route words a repeat itself).
 */
export function IsQueryInteger(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return numberRule(
    'isQueryInteger',
    {
      grammar: INTEGER_TEXT,
      min,
      max,
      expected: `an integer from ${min} to ${max} written in decimal digits`,
    },
    options,
  );
}

/** A query parameter (text) holding a number from `min` to `max` ("7", "7.5", "1e-3"), given once. */
export function IsQueryNumber(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return numberRule(
    'isQueryNumber',
    {
      grammar: DECIMAL_TEXT,
      min,
      max,
      expected: `a number from ${min} to ${max} (JSON number syntax)`,
    },
    options,
  );
}

/** The number in a query value IsQueryInteger or IsQueryNumber accepted, or `fallback` when none was given. */
export function checkedQueryNumber(value: unknown, fallback: number): number {
  return value == null ? fallback : Number(value);
}
