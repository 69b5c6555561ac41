import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidatorOptions } from 'class-validator';
import { ApiError } from '@analyst/contracts';

/** Unknown fields are refused; a field's first broken rule is the one reported. */
const VALIDATOR_OPTIONS: ValidatorOptions = { whitelist: true, forbidNonWhitelisted: true };

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    // A message names its field first; one that already names a nested field's whole path
    // (`a keyword search.query is …`) is kept as worded.
    const own = Object.values(error.constraints ?? {}).map((m) => {
      if (m.startsWith(error.property)) return m.replace(error.property, path);
      return parent && m.includes(path) ? m : `${path}: ${m}`;
    });
    return [...own, ...describe(error.children ?? [], path)];
  });
}

/** What class-validator found wrong, as one readable sentence naming each field. */
export function describeValidationErrors(errors: ValidationError[]): string {
  return describe(errors).join('; ') || 'invalid request';
}

/** class-validator for every DTO: unknown fields are refused and each message names its field. */
export function apiValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    ...VALIDATOR_OPTIONS,
    transform: true,
    exceptionFactory: (errors) => new ApiError(400, describeValidationErrors(errors), 'invalid_request'),
  });
}

/**
 * The `context.code` of the first broken rule, in the order the message lists them (nested fields
 * included), or undefined when that rule names none: for a service whose refusals carry several
 * codes, a rule says its own with `{ context: { code } }`.
 */
export function firstRuleCode<C extends string>(errors: readonly ValidationError[]): C | undefined {
  const first = errors[0];
  if (!first) return undefined;
  const rules = Object.keys(first.constraints ?? {});
  if (rules.length > 0) return (first.contexts?.[rules[0]] as { code?: C } | undefined)?.code;
  return firstRuleCode<C>(first.children ?? []);
}

export interface ValidateRequestOptions {
  /** The message when `raw` is not a JSON object at all (`body must be a JSON object`). */
  notAnObject?: string;
  /** How a field the DTO does not declare is refused, when the route words it its own way. */
  unknownField?: (field: string) => string;
}

/** Words the refusal of each undeclared top-level field as `unknownField` says. */
function rewordUnknownFields(errors: ValidationError[], unknownField: (field: string) => string): void {
  for (const error of errors)
    if (error.constraints?.whitelistValidation)
      error.constraints.whitelistValidation = unknownField(error.property);
}

/**
 * The same class-validator rules for a request part a route reads itself (a query string, a body
 * field interpreted further, a nested object): `raw` as an instance of `dto`, or `refuse(message)`
 * thrown with the message the pipe would give. Services raise their own coded error through `refuse`;
 * `errors` (none when `raw` is not an object) lets a service with several codes pick one from the
 * rules' `context`.
 */
export function validateRequest<T extends object>(
  dto: new () => T,
  raw: unknown,
  refuse: (message: string, errors: readonly ValidationError[]) => Error,
  options: ValidateRequestOptions = {},
): T {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw refuse(options.notAnObject ?? 'request must be a JSON object', []);
  const instance = plainToInstance(dto, raw);
  const errors = validateSync(instance, VALIDATOR_OPTIONS);
  if (options.unknownField) rewordUnknownFields(errors, options.unknownField);
  if (errors.length > 0) throw refuse(describeValidationErrors(errors), errors);
  return instance;
}
