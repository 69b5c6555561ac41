import 'reflect-metadata';
import { APP_GUARD } from '@nestjs/core';
import { InternalAuthGuard } from '@analyst/gateway';
import { LedgerModule } from '@analyst/ledger';
import { runService } from '@analyst/platform';

/** The ledger service: ReserveCredits and friends on its command topic, balances, admin credits routes. */
void runService({
  service: 'ledger',
  imports: () => [LedgerModule],
  providers: [{ provide: APP_GUARD, useClass: InternalAuthGuard }],
});
