import type { LoggerService, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PeriodicTask } from '../time/periodic-task';

/**
 * Gauges recomputed on a timer rather than per scrape, because computing them queries a read model.
 * The timer starts with the application when there are gauges to set and stops with the module. A
 * refresh that fails keeps the last values and logs a warning: the read store's own health and the
 * projection alerts say what is wrong.
 */
export abstract class PeriodicGauges implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly task: PeriodicTask;

  /** `what` names the gauges in the warning ("`what` not refreshed: …"). */
  protected constructor(everyMs: number, logger: Pick<LoggerService, 'warn'>, what: string) {
    this.task = new PeriodicTask(
      everyMs,
      () => this.refresh(),
      (error) => logger.warn(`${what} not refreshed: ${String(error)}`),
    );
  }

  /** Whether there are gauges to set: without a registry nothing is recorded and no timer runs. */
  protected abstract active(): boolean;

  /** Recomputes the gauges now (the timer calls this). */
  abstract refresh(): Promise<void>;

  onApplicationBootstrap(): void {
    if (this.active()) this.task.start(true);
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }
}
