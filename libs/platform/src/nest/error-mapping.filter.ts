import { Catch, type ArgumentsHost } from '@nestjs/common';
import { ErrorEnvelopeFilter } from './error-envelope.filter';

/**
 * A service's controllers answer their errors through the service's one mapping
 * (`domainErrorMapping`), then in the API's envelope: `@UseFilters(new ErrorMappingFilter(toApiError))`.
 * Handlers and domain code raise typed errors and never build HTTP answers. A filter rather than an
 * interceptor: it costs nothing on the success path (see query-rules.ts).
 */
@Catch()
export class ErrorMappingFilter extends ErrorEnvelopeFilter {
  constructor(private readonly map: (error: unknown) => unknown) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    super.catch(this.map(exception), host);
  }
}
