import { Catch, type ArgumentsHost } from '@nestjs/common';
import { ErrorEnvelopeFilter } from '@analyst/platform';
import { toApiError } from './ingest-error.mapping';

/**
 * Every ingest controller's errors pass through ingest's one mapping before the API's envelope, so
 * handlers and steps raise domain errors and never build HTTP answers.
 */
@Catch()
export class IngestErrorFilter extends ErrorEnvelopeFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    super.catch(toApiError(exception), host);
  }
}
