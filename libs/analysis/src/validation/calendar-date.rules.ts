import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { parseCalendarInstant } from '@analyst/contracts';

// The one date rule of the post filters (`posted_since`, …) and the comment filters (`since`,
// `until`), and the instant such a date names once accepted.

/** The instant a date names: a bare date is its whole UTC day, starting or ending it. */
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
