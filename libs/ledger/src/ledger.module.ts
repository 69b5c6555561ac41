import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionService } from '@analyst/platform';
import { LedgerAdminController } from './admin/ledger-admin.controller';
import { LedgerBusListener } from './bus/ledger-bus.listener';
import { TeamAllotmentConsumer } from './bus/team-allotment.consumer';
import { LedgerCommands } from './ledger-commands';
import { LedgerService } from './ledger.service';
import { LedgerMetrics } from './metrics/ledger-metrics';
import { MonthlyResetScheduler } from './monthly-reset.scheduler';
import { ledgerProjectors } from './projections';

/** The credit ledger: MAPs and Ad Hoc pools, reserve, settle, refund, audit. */
@Module({
  controllers: [LedgerAdminController],
  providers: [
    LedgerCommands,
    LedgerService,
    LedgerBusListener,
    TeamAllotmentConsumer,
    MonthlyResetScheduler,
    LedgerMetrics,
  ],
  exports: [LedgerService],
})
export class LedgerModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionService) {}

  onModuleInit(): void {
    this.projections.register(...ledgerProjectors);
  }
}
