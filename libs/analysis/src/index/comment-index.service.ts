import { Inject, Injectable } from '@nestjs/common';
import {
  ANALYST_CONFIG,
  EVENT_STORE,
  LiveLogFold,
  type AnalystConfig,
  type EventStore,
} from '@analyst/platform';
import { CommentIndex, applyToIndex, INDEX_EVENT_TYPES } from '@analyst/comment-index';

/**
 * Keeps the columnar comment index in memory, folded from the whole log and live on it. Requests
 * call `current()` first, so a read sees every event appended before it.
 */
@Injectable()
export class CommentIndexService extends LiveLogFold<CommentIndex> {
  constructor(@Inject(EVENT_STORE) events: EventStore, @Inject(ANALYST_CONFIG) config: AnalystConfig) {
    super(
      events,
      new CommentIndex({ minDeadRows: config.ANALYSIS_COMPACT_MIN_DEAD_ROWS }),
      INDEX_EVENT_TYPES,
      applyToIndex,
      {
        logger: 'AnalysisIndex',
        state: 'comment index',
      },
    );
  }
}
