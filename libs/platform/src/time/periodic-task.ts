/**
 * A task run every `everyMs` and on demand, never two runs at once (a run that is still going when
 * the next is due delays it), stopped cleanly: `stop()` waits for the run in flight. A run that
 * throws is reported to `onError` and the task keeps its schedule. The timer does not keep the
 * process alive.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly everyMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts the schedule; with `runNow`, the first run is queued at once. */
  start(runNow = false): void {
    if (runNow) this.trigger();
    this.timer = setInterval(() => this.trigger(), this.everyMs);
    this.timer.unref();
  }

  /** Queues one more run after the one in flight. */
  trigger(): void {
    if (this.stopped) return;
    this.running = this.running.then(async () => {
      if (this.stopped) return;
      try {
        await this.run();
      } catch (error) {
        this.onError(error);
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
