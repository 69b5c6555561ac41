import type { DomainEvent, EventConsumerOptions } from '@analyst/platform';
import { countFailures, type IngestMetrics } from '../metrics/ingest-metrics';

/**
 * What an ingest process manager listens to (its logger name, consumer group, one topic and the
 * event types it handles); its failures are counted under its consumer group.
 */
export function countedSubscription<E extends DomainEvent>(
  metrics: IngestMetrics | undefined,
  name: string,
  group: string,
  topic: string,
  types: readonly E['type'][],
): EventConsumerOptions<E> {
  return { name, group, topics: [topic], types, wrap: (handler) => countFailures(metrics, group, handler) };
}
