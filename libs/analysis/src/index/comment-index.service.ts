import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ANALYST_CONFIG, EVENT_STORE, LogFollower, type AnalystConfig, type EventStore } from '@analyst/platform';
import { CommentIndex } from './comment-index';
import { applyToIndex, INDEX_EVENT_TYPES } from './index-feed';

const HANDLED = new Set<string>(INDEX_EVENT_TYPES);

/**
 * Keeps the columnar comment index in memory: folds the whole log at boot, then stays live on the
 * event store's subscription. Requests call `current()` first, so a read sees every event appended
 * before it (read-your-writes across services in one process).
 */
@Injectable()
export class CommentIndexService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AnalysisIndex');
  readonly index: CommentIndex;
  private readonly follower: LogFollower;

  constructor(@Inject(EVENT_STORE) events: EventStore, @Inject(ANALYST_CONFIG) config: AnalystConfig) {
    this.index = new CommentIndex({ minDeadRows: config.ANALYSIS_COMPACT_MIN_DEAD_ROWS });
    this.follower = new LogFollower(
      events,
      (event) => {
        if (HANDLED.has(event.type)) applyToIndex(this.index, event);
      },
      'comment index',
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    const started = Date.now();
    await this.follower.start();
    this.logger.log(`comment index at position ${this.follower.position} in ${Date.now() - started} ms`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower.stop();
  }

  /** The index once it has folded every event stored now. */
  async current(timeoutMs = 10_000): Promise<CommentIndex> {
    await this.follower.caughtUp(timeoutMs);
    return this.index;
  }
}
