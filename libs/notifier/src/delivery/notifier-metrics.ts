import type { Counter, Gauge, Registry } from 'prom-client';
import { counterOn, gaugeOn } from '@analyst/platform';
import type { TickReport } from '@analyst/webhooks';

/**
 * The delivery engine on /metrics, added up from each tick's report. The lag is read when scraped:
 * the log's head now against the lowest checkpoint this replica held at its last tick, so a stuck
 * or slow replica shows a growing figure even while its ticks stall.
 */
export class NotifierMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly finished: Counter<'reason'>;
  private readonly disabled: Counter;
  private readonly created: Counter;
  private readonly held: Gauge;
  /** The lowest checkpoint of the last tick, shared with the lag gauge's collect (which has its own `this`). */
  private readonly lowest: { checkpoint: number | null } = { checkpoint: null };

  constructor(registry: Registry, headPosition: () => Promise<number>) {
    const lowest = this.lowest;
    gaugeOn(registry, {
      name: 'analyst_notifier_log_lag_events',
      help: "Log positions past this replica's lowest held partition checkpoint (0 while it holds no partition): events not yet turned into deliveries",
      async collect() {
        const checkpoint = lowest.checkpoint;
        this.set(checkpoint === null ? 0 : Math.max(0, (await headPosition()) - checkpoint));
      },
    });
    this.attempts = counterOn(registry, {
      name: 'analyst_notifier_delivery_attempts_total',
      help: 'Delivery attempts by outcome: delivered (2xx within the timeout), failed (retried or given up), superseded (the claim lapsed mid-attempt and another replica attempted it)',
      labelNames: ['outcome'],
    });
    this.finished = counterOn(registry, {
      name: 'analyst_notifier_deliveries_finished_total',
      help: 'Deliveries that ended undelivered: given_up (72 h of failed attempts), endpoint_disabled, endpoint_deleted',
      labelNames: ['reason'],
    });
    this.disabled = counterOn(registry, {
      name: 'analyst_notifier_endpoints_disabled_total',
      help: 'Endpoints this replica disabled after 72 h of failed attempts',
    });
    this.created = counterOn(registry, {
      name: 'analyst_notifier_deliveries_created_total',
      help: 'Deliveries created from the log, one per (endpoint, event)',
    });
    this.held = gaugeOn(registry, {
      name: 'analyst_notifier_partitions_held',
      help: 'Delivery partitions this replica holds',
    });
    // Every series present from the start, so rates and alerts see 0 rather than nothing.
    for (const outcome of ['delivered', 'failed', 'superseded']) this.attempts.inc({ outcome }, 0);
    for (const reason of ['given_up', 'endpoint_disabled', 'endpoint_deleted'])
      this.finished.inc({ reason }, 0);
  }

  record(report: TickReport): void {
    this.lowest.checkpoint = report.lowestCheckpoint;
    this.held.set(report.partitions.length);
    this.created.inc(report.created);
    for (const [outcome, n] of Object.entries(report.attempts)) if (n > 0) this.attempts.inc({ outcome }, n);
    for (const [reason, n] of Object.entries(report.finished)) if (n > 0) this.finished.inc({ reason }, n);
    this.disabled.inc(report.disabledEndpoints.length);
  }
}
