import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PeriodicTask } from '@analyst/platform';

/** What one sweep did with each nominated id: its outcome, or that it threw. */
export interface SweepResult<Outcome extends string> {
  outcomes: Map<string, Outcome>;
  failed: string[];
}

/**
 * A periodic sweep over ids a read model nominates, where each id's own stream decides what, if
 * anything, is done (so several replicas sweeping at once, or a stale read model, are harmless).
 * Owns the schedule and the shutdown, and counts failures: an id whose step throws is logged and
 * left for the next sweep; a failing nomination query is logged too. Subclasses say what to
 * nominate and what to do with one id.
 */
export abstract class StreamSweeper<Outcome extends string>
  implements OnApplicationBootstrap, OnModuleDestroy
{
  protected readonly logger: Logger;
  private readonly task: PeriodicTask;
  private stopped = false;
  /** Steps and sweeps that threw, for /metrics and the logs. */
  errors = 0;

  protected constructor(name: string, everyMs: number, what: string) {
    this.logger = new Logger(name);
    this.task = new PeriodicTask(
      everyMs,
      () => this.runOnce(),
      (error) => {
        this.errors += 1;
        this.logger.error(`sweeping for ${what} failed: ${String(error)}`);
      },
    );
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.task.stop();
  }

  abstract runOnce(): Promise<unknown>;

  /** Runs `step` for each id in turn until the app stops; `describe` names an id in a failure's log line. */
  protected async sweep(
    ids: readonly string[],
    step: (id: string) => Promise<Outcome>,
    describe: (id: string) => string,
  ): Promise<SweepResult<Outcome>> {
    const result: SweepResult<Outcome> = { outcomes: new Map(), failed: [] };
    for (const id of ids) {
      if (this.stopped) break;
      try {
        result.outcomes.set(id, await step(id));
      } catch (error) {
        this.errors += 1;
        result.failed.push(id);
        this.logger.error(`${describe(id)} failed: ${String(error)}; retrying on the next sweep`);
      }
    }
    return result;
  }

  /** The ids whose step ended in `outcome`, in sweep order. */
  protected static idsWith<O extends string>(result: SweepResult<O>, outcome: O): string[] {
    return [...result.outcomes].filter(([, o]) => o === outcome).map(([id]) => id);
  }
}
