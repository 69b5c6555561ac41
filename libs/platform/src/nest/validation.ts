import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError } from '@analyst/contracts';

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((m) =>
      m.startsWith(error.property) ? m.replace(error.property, path) : `${path}: ${m}`,
    );
    return [...own, ...describe(error.children ?? [], path)];
  });
}

/** class-validator for every DTO: unknown fields are refused and each message names its field. */
export function apiValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) =>
      new ApiError(400, describe(errors).join('; ') || 'invalid request', 'invalid_request'),
  });
}
