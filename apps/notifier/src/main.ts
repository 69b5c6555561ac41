import 'reflect-metadata';
import { APP_GUARD } from '@nestjs/core';
import { InternalAuthGuard } from '@analyst/gateway';
import { NotifierModule, notifierConfigProblems } from '@analyst/notifier';
import { runService } from '@analyst/platform';

/** The notifier service: webhook endpoints, their deliveries from the log, and the event stream. */
void runService({
  service: 'notifier',
  // A bad ANALYST_WEBHOOK_ALLOWED_NETWORKS, ANALYST_NOTIFIER_TICK_MS or ANALYST_EVENTS_HEARTBEAT_MS /
  // _RETENTION_HOURS exits 2 with the platform's problems, before anything opens.
  configProblems: notifierConfigProblems,
  imports: () => [NotifierModule],
  providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
});
