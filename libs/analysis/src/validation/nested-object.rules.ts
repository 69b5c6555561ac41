import { plainToInstance, Transform } from 'class-transformer';
import {
  Allow,
  getMetadataStorage,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';

/**
 * A nested field that could not be read as its DTO, and why. ValidateNested finds nothing to say
 * about it (its one field is allowed), so the refusal is IsObjectOf's alone.
 */
class UnreadObject {
  @Allow()
  readonly refusal: string;

  constructor(refusal: string) {
    this.refusal = refusal;
  }
}

/** The fields a DTO declares (every one carries a rule, or `@Allow()`). */
export function declaredFields(dto: new () => object): ReadonlySet<string> {
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', true, false)
      .map((m) => m.propertyName),
  );
}

export interface NestedObjectWording {
  /** The refusal of a value that is not a JSON object (or is missing, for a required field). */
  notAnObject: string;
  /** The refusal of a field the DTO does not declare, worded by the route. */
  unknownField: (name: string) => string;
  /** A missing or null field is no object at all, and not refused. */
  optional?: boolean;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readAs(dto: new () => object, value: unknown, wording: NestedObjectWording): unknown {
  if (value === undefined || (value === null && wording.optional)) return value;
  if (!isPlainObject(value)) return new UnreadObject(wording.notAnObject);
  const fields = declaredFields(dto);
  const unknown = Object.keys(value).filter((k) => !fields.has(k));
  if (unknown.length > 0) return new UnreadObject(unknown.map(wording.unknownField).join('; '));
  return plainToInstance(dto, value);
}

/**
 * A JSON object read as `dto` and checked by its rules (ValidateNested: messages name the path,
 * `selection.postIds must be …`). Not an object, or holding a field `dto` does not declare, it is
 * refused in the route's own words rather than the whitelist's "property x should not exist",
 * and its fields are not judged further (as the hand-written parsers stopped there).
 */
export function IsObjectOf(dto: new () => object, wording: NestedObjectWording): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    Transform(({ value }) => readAs(dto, value, wording), { toClassOnly: true }),
    ValidateBy({
      name: 'isObjectOf',
      validator: {
        validate: (value: unknown) => value !== undefined && !(value instanceof UnreadObject),
        defaultMessage: (args?: ValidationArguments) =>
          args?.value instanceof UnreadObject ? args.value.refusal : wording.notAnObject,
      },
    }),
    ValidateNested(),
  ];
  if (wording.optional) decorators.unshift(ValidateIf((_o: object, value: unknown) => value != null));
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}
