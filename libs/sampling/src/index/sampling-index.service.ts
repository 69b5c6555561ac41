import { Inject, Injectable } from '@nestjs/common';
import {
  ANALYST_CONFIG,
  EVENT_STORE,
  LiveLogFold,
  type AnalystConfig,
  type EventStore,
} from '@analyst/platform';
import { SAMPLING_EVENT_TYPES, SamplingIndex } from './sampling-index';

/**
 * Keeps the sampling index in memory, folded from the whole log and live on it. `current()` waits
 * for every event stored before the request, so a sample taken right after POST /analyses sees the
 * new analysis.
 */
@Injectable()
export class SamplingIndexService extends LiveLogFold<SamplingIndex> {
  constructor(@Inject(EVENT_STORE) events: EventStore, @Inject(ANALYST_CONFIG) config: AnalystConfig) {
    super(
      events,
      new SamplingIndex({ minDeadRows: config.ANALYSIS_COMPACT_MIN_DEAD_ROWS }),
      SAMPLING_EVENT_TYPES,
      (index, event) => index.apply(event),
      {
        logger: 'SamplingIndex',
        state: 'sampling index',
      },
    );
  }
}
