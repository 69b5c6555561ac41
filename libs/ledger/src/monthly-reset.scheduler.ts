import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { monthOf } from '@analyst/domain-ledger';
import { CLOCK, READ_STORE, type Clock, type ReadStore } from '@analyst/platform';
import { LEDGER_BALANCES } from './ledger.tokens';
import { LedgerService } from './ledger.service';

export const MONTHLY_RESET_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Month end: every few minutes, teams whose MAPs still belong to an earlier UTC month get their
 * reset. Any ledger command resets first anyway; this makes balances turn over for idle teams too.
 * Resets are idempotent per month, so several replicas running this is harmless.
 */
@Injectable()
export class MonthlyResetScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LedgerMonths');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ledger: LedgerService,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.runOnce().catch((error) => this.logger.error(`monthly MAP reset failed: ${String(error)}`));
    }, MONTHLY_RESET_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Resets every team still in an earlier month; returns how many were reset. */
  async runOnce(): Promise<number> {
    const month = monthOf(this.clock.now());
    const stale = await this.store.collection(LEDGER_BALANCES).find({ month: { $lt: month } }, { projection: { teamId: 1 } });
    let reset = 0;
    for (const doc of stale) {
      const teamId = doc.teamId as string;
      if (await this.ledger.resetMaps(teamId, { correlationId: `maps-reset-${month}`, teamId })) reset += 1;
    }
    if (reset > 0) this.logger.log(`MAPs reset for ${reset} teams for ${month}`);
    return reset;
  }
}
