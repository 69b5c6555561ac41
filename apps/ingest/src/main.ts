import 'reflect-metadata';
import { APP_GUARD } from '@nestjs/core';
import { InternalAuthGuard } from '@analyst/gateway';
import { IngestModule } from '@analyst/ingest';
import { runService } from '@analyst/platform';

/** The ingest service: content routes and jobs, provider fetch, scoring, credit settlement. */
void runService({
  service: 'ingest',
  imports: () => [IngestModule],
  providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
});
