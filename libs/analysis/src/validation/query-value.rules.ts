import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { parseCalendarInstant } from '@analyst/contracts';

// Rules for values of a query string, which also arrive as JSON (`selection.posts`): a parameter
// may be repeated (an array), and JSON may send a number or a one-element list for one value.

const isScalar = (value: unknown): value is string | number =>
  typeof value === 'string' || typeof value === 'number';

/** One value as text: `["5"]` and `5` read as "5"; anything else is left for IsOneText to refuse. */
export const AsOneText = (): PropertyDecorator =>
  Transform(
    ({ value }) => {
      if (Array.isArray(value) && value.length === 1 && isScalar(value[0])) return String(value[0]);
      return typeof value === 'number' ? String(value) : value;
    },
    { toClassOnly: true },
  );

/** A parameter that takes one text value (after AsOneText). */
export function IsOneText(): PropertyDecorator {
  return ValidateBy({
    name: 'isOneText',
    validator: {
      validate: (value: unknown) => typeof value === 'string',
      defaultMessage: (args?: ValidationArguments) =>
        Array.isArray(args?.value) && args.value.length !== 1
          ? `${args.property} takes one value`
          : `${args?.property} must be a string`,
    },
  });
}

/** A list: comma-separated, repeated, or both, read as its trimmed non-empty values. */
export const AsTextList = (): PropertyDecorator =>
  Transform(
    ({ value }) => {
      const items: unknown[] = Array.isArray(value) ? value : [value];
      if (!items.every((v) => typeof v === 'string')) return value;
      return (items as string[])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v.length > 0);
    },
    { toClassOnly: true },
  );

/** A list of texts (after AsTextList). */
export function IsTextList(): PropertyDecorator {
  return ValidateBy({
    name: 'isTextList',
    validator: {
      validate: (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string'),
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property} must be a string or a list of strings`,
    },
  });
}

/** The instant a date parameter names: a bare date is its whole UTC day, starting or ending it. */
export const calendarInstant = (value: unknown, bound: 'start' | 'end' = 'start'): number | null =>
  typeof value === 'string' ? parseCalendarInstant(value, { endOfDay: bound === 'end' }) : null;

/** An ISO 8601 date or timestamp (UTC unless zoned) the calendar has: 2026-02-30 is refused, never rolled over. */
export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCalendarDate',
      validator: {
        validate: (value: unknown) => calendarInstant(value) !== null,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must be an ISO 8601 date or timestamp on the calendar, got "${String(args?.value)}"`,
      },
    },
    options,
  );
}
