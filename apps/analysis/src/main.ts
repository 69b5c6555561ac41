import 'reflect-metadata';
import { APP_GUARD } from '@nestjs/core';
import { AnalysisModule } from '@analyst/analysis';
import { InternalAuthGuard } from '@analyst/gateway';
import { runService } from '@analyst/platform';

/** The analysis service: selections, snapshots, search jobs, post analyses, metrics and catalog reads. */
void runService({
  service: 'analysis',
  imports: () => [AnalysisModule],
  providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
});
