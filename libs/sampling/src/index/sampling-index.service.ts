import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ANALYST_CONFIG, EVENT_STORE, LogFollower, type AnalystConfig, type EventStore } from '@analyst/platform';
import { SAMPLING_EVENT_TYPES, SamplingIndex } from './sampling-index';

const HANDLED = new Set<string>(SAMPLING_EVENT_TYPES);

/**
 * Keeps the sampling index in memory: folds the whole log at boot, then stays live on the event
 * store's subscription. `current()` waits for every event stored before the request, so a sample
 * taken right after POST /analyses sees the new analysis.
 */
@Injectable()
export class SamplingIndexService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SamplingIndex');
  readonly index: SamplingIndex;
  private readonly follower: LogFollower;

  constructor(@Inject(EVENT_STORE) events: EventStore, @Inject(ANALYST_CONFIG) config: AnalystConfig) {
    this.index = new SamplingIndex({ minDeadRows: config.ANALYSIS_COMPACT_MIN_DEAD_ROWS });
    this.follower = new LogFollower(
      events,
      (event) => {
        if (HANDLED.has(event.type)) this.index.apply(event);
      },
      'sampling index',
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    const started = Date.now();
    await this.follower.start();
    this.logger.log(`sampling index at position ${this.follower.position} in ${Date.now() - started} ms`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower.stop();
  }

  /** The index once it has folded every event stored now. */
  async current(timeoutMs = 10_000): Promise<SamplingIndex> {
    await this.follower.caughtUp(timeoutMs);
    return this.index;
  }
}
