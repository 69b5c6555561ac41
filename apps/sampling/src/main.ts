import 'reflect-metadata';
import { APP_GUARD } from '@nestjs/core';
import { InternalAuthGuard } from '@analyst/gateway';
import { runService } from '@analyst/platform';
import { SamplingModule } from '@analyst/sampling';

/** The sampling service: comment samples behind analyses and posts. */
void runService({
  service: 'sampling',
  imports: () => [SamplingModule],
  providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
});
