import type { Registry } from 'prom-client';
import { gaugeOn } from '@analyst/platform';
import type { EventStreams } from './event-streams';

/**
 * The open `GET /events` streams of this process on /metrics, read when scraped: those on the
 * shared tail of the log (`subscription="shared"`) and those with a subscription of their own
 * (resumed, or a slow reader's), which each read the log again.
 */
export function registerEventStreamMetrics(registry: Registry, streams: EventStreams): void {
  gaugeOn(registry, {
    name: 'analyst_notifier_event_streams_open',
    help: 'Open GET /events streams in this process, by how they read the log: shared (one subscription for all) or own',
    labelNames: ['subscription'],
    collect() {
      this.set({ subscription: 'shared' }, streams.onTail);
      this.set({ subscription: 'own' }, streams.count - streams.onTail);
    },
  });
}
