import { eventTopic, type DomainEvent, type EventConsumerOptions } from '@analyst/platform';
import { countFailures, type IngestMetrics } from '../metrics/ingest-metrics';

/**
 * What an ingest process manager listens to (its logger name, consumer group, the event category
 * whose topic it reads, and the event types it handles); its failures are counted under its group.
 */
export function countedSubscription<E extends DomainEvent>(
  metrics: IngestMetrics | undefined,
  name: string,
  group: string,
  category: string,
  types: readonly E['type'][],
): EventConsumerOptions<E> {
  return {
    name,
    group,
    topics: [eventTopic(category)],
    types,
    wrap: (handler) => countFailures(metrics, group, handler),
  };
}
