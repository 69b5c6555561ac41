import 'reflect-metadata';
import { APP_GUARD } from '@nestjs/core';
import { InternalAuthGuard } from '@analyst/gateway';
import { NotifierModule } from '@analyst/notifier';
import { runService } from '@analyst/platform';

/** The notifier service: webhook endpoints, their deliveries from the log, and the event stream. */
void runService({
  service: 'notifier',
  imports: () => [NotifierModule],
  providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
});
