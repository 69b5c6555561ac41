import 'reflect-metadata';
import { APP_GUARD } from '@nestjs/core';
import { InternalAuthGuard } from '@analyst/gateway';
import { IngestModule, ingestOptionsFromEnv } from '@analyst/ingest';
import { runService } from '@analyst/platform';

// Checked before anything starts, like the platform's own variables: a bad value is exit 2.
try {
  ingestOptionsFromEnv();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}

/** The ingest service: content routes and jobs, provider fetch, scoring, credit settlement. */
void runService({
  service: 'ingest',
  imports: () => [IngestModule],
  providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
});
