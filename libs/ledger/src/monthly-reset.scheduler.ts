import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { monthOf, startOfNextMonth } from '@analyst/domain-ledger';
import { CLOCK, ProjectionService, READ_STORE, type Clock, type ReadStore } from '@analyst/platform';
import type { LedgerBalancesDoc } from '@analyst/ledger-read';
import { LEDGER_BALANCES } from './ledger.tokens';
import { LedgerService } from './ledger.service';

export const MONTHLY_RESET_INTERVAL_MS = 5 * 60 * 1000;
/** Longest single wait for the month boundary; the timer re-arms, so clock jumps are caught within this. */
const MAX_BOUNDARY_WAIT_MS = 60 * 60 * 1000;
/** How long the start-up run waits for the read models to catch up with the log. */
const STARTUP_WAIT_MS = 120_000;

/**
 * Month end: teams whose MAPs still belong to an earlier UTC month get their reset, once at
 * start-up (after the read models caught up), at the month boundary, and every 5 minutes after.
 * Any ledger command resets first anyway, and every reader of a balance applies a due reset
 * (`balancesAt`), so this only makes the reset *events* land for idle teams. Resets are
 * idempotent per month, so several replicas running this is harmless.
 */
@Injectable()
export class MonthlyResetScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('LedgerMonths');
  private interval: NodeJS.Timeout | null = null;
  private boundary: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly ledger: LedgerService,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly projections: ProjectionService,
  ) {}

  onApplicationBootstrap(): void {
    this.interval = setInterval(() => this.trigger(), MONTHLY_RESET_INTERVAL_MS);
    this.interval.unref();
    this.armBoundary();
    this.running = this.afterCatchUp().then(() => this.runLogged());
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.interval) clearInterval(this.interval);
    if (this.boundary) clearTimeout(this.boundary);
    await this.running;
  }

  /** Resets every team still in an earlier month; returns how many were reset. */
  async runOnce(): Promise<number> {
    const month = monthOf(this.clock.now());
    const stale = await this.store
      .collection<LedgerBalancesDoc>(LEDGER_BALANCES)
      .find({ month: { $lt: month } }, { projection: { teamId: 1 } });
    let reset = 0;
    for (const { teamId } of stale) {
      if (this.stopped) break;
      if (await this.ledger.resetMaps(teamId, { correlationId: `maps-reset-${month}`, teamId })) reset += 1;
    }
    if (reset > 0) this.logger.log(`MAPs reset for ${reset} teams for ${month}`);
    return reset;
  }

  /** Runs once more after any run in flight (runs never overlap). */
  private trigger(): void {
    if (this.stopped) return;
    this.running = this.running.then(() => this.runLogged());
  }

  private async runLogged(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.runOnce();
    } catch (error) {
      this.logger.error(`monthly MAP reset failed: ${String(error)}`);
    }
  }

  /** A timer for the first instant of the next UTC month (by the injected clock), re-armed after each wait. */
  private armBoundary(): void {
    if (this.stopped) return;
    const now = this.clock.now().getTime();
    const due = startOfNextMonth(this.clock.now()).getTime();
    this.boundary = setTimeout(
      () => {
        if (this.clock.now().getTime() >= due) this.trigger();
        this.armBoundary();
      },
      Math.max(1, Math.min(due - now, MAX_BOUNDARY_WAIT_MS)),
    );
    this.boundary.unref();
  }

  /** The start-up run reads the balances read model, so it waits until that has caught up with the log. */
  private async afterCatchUp(): Promise<void> {
    const until = Date.now() + STARTUP_WAIT_MS;
    while (!this.projections.ready && !this.stopped && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50).unref());
  }
}
