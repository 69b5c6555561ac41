import { ValidateBy, type ValidationArguments } from 'class-validator';
import { PLATFORMS } from '@analyst/contracts';
import { acceptedQueryNumber } from '@analyst/platform';
import { IsNotAbove } from '../validation/bound-order.rules';
import { calendarInstant } from '../validation/query-value.rules';

const unknownPlatform = (values: unknown): string | undefined =>
  (values as string[]).map((p) => p.toLowerCase()).find((p) => !(PLATFORMS as readonly string[]).includes(p));

/** Every value names a platform, in any case. */
export function IsPlatformList(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPlatformList',
      validator: {
        validate: (value: unknown) => unknownPlatform(value) === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `platform "${unknownPlatform(args?.value)}" is not one of ${PLATFORMS.join(', ')}`,
      },
    },
    { validateIf: (_query: object, value: unknown) => Array.isArray(value) },
  );
}

/** A `min_*` number parameter not greater than its `max_*` (both from `min` to `max`). */
export const IsNotGreaterThan = (upper: string, min: number, max: number): PropertyDecorator =>
  IsNotAbove(
    upper,
    (value) => acceptedQueryNumber(value, min, max),
    (property) => `${property} must not be greater than ${upper}`,
  );

/** A `*_since` date not after its `*_until` (a bare `until` date counts to the end of its day). */
export const IsNotAfter = (until: string): PropertyDecorator =>
  IsNotAbove(
    until,
    (value, field) => calendarInstant(value, field === until ? 'end' : 'start'),
    (property) => `${property} must not be after ${until}`,
  );
