import { ValidateBy, type ValidationArguments } from 'class-validator';

/**
 * A lower bound not above the upper bound in field `upper` (`min_score` and `max_score`, `since`
 * and `until`). `read` gives a bound's value, or null for one the field's own rules refuse: that is
 * not compared, so a bad value is reported once. `refusal` words it from the field's name.
 */
export function IsNotAbove(
  upper: string,
  read: (value: unknown, field: string) => number | null,
  refusal: (property: string) => string,
): PropertyDecorator {
  return (target, property) =>
    ValidateBy({
      name: 'isNotAbove',
      constraints: [upper],
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          const low = read(value, String(property));
          const high = read((args?.object as Record<string, unknown>)[upper], upper);
          return low === null || high === null || low <= high;
        },
        defaultMessage: () => refusal(String(property)),
      },
    })(target, property);
}
