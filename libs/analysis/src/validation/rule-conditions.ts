import type { ValidationOptions } from 'class-validator';

// validateRequest reports every rule a value breaks, so the rules of one field are made exclusive:
// each later rule judges only values the earlier ones accepted, and a value with one fault gets the
// one message it always got.

/** A rule's options so that it judges only the values `accepted` lets through. */
export function onlyWhen<T extends object = Record<string, unknown>>(
  accepted: (value: unknown, object: T) => boolean,
  options: ValidationOptions = {},
): ValidationOptions {
  return { ...options, validateIf: (object: T, value: unknown) => accepted(value, object) };
}

export const isText = (value: unknown): value is string => typeof value === 'string';
