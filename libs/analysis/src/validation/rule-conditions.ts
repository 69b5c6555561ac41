import { ValidateIf, type ValidationOptions } from 'class-validator';

// validateRequest reports every rule a value breaks, so the rules of one field are made exclusive:
// each later rule judges only values the earlier ones accepted, and a value with one fault gets the
// one message it always got.

/** A field that is present: a missing field is skipped, `null` is judged like any other value. */
export const IsGiven = (): PropertyDecorator =>
  ValidateIf((_object: object, value: unknown) => value !== undefined);

/** A rule's options so that it judges only the values `accepted` lets through. */
export function onlyWhen<T extends object = Record<string, unknown>>(
  accepted: (value: unknown, object: T) => boolean,
  options: ValidationOptions = {},
): ValidationOptions {
  return { ...options, validateIf: (object: T, value: unknown) => accepted(value, object) };
}

export const isText = (value: unknown): value is string => typeof value === 'string';

export const isTextArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The trimmed, non-empty values of a list of texts (blank ones are left out, not refused). */
export const trimmedValues = (values: readonly string[]): string[] =>
  values.map((v) => v.trim()).filter((v) => v.length > 0);
