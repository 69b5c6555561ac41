import type { Counter, Registry } from 'prom-client';
import { counterOn, gaugeOn } from '@analyst/platform';
import type { Replica } from './replica-discovery';
import type { UpstreamPool } from './upstream-pool';
import type { UpstreamService } from './upstreams';

/**
 * The upstream pool on /metrics, labelled `upstream` (the service; `service` is the registry's own
 * label, the gateway): replicas known and ready, read when scraped, and forwards per replica, so a
 * team-affine service's share of traffic per replica and a replica skipped as down are visible.
 */
export class UpstreamMetrics {
  private readonly forwards: Counter<'upstream' | 'replica'>;
  private readonly refusals: Counter<'upstream' | 'replica'>;

  constructor(registry: Registry, pool: UpstreamPool) {
    const gauge = (name: string, help: string, read: (c: { known: number; ready: number }) => number) =>
      gaugeOn(registry, {
        name,
        help,
        labelNames: ['upstream'],
        collect() {
          this.reset();
          for (const service of pool.serviceNames())
            this.set({ upstream: service }, read(pool.counts(service)));
        },
      });
    gauge(
      'analyst_gateway_upstream_replicas',
      'Replicas the gateway knows per upstream service (list entries, each host name resolved into its addresses)',
      (c) => c.known,
    );
    gauge(
      'analyst_gateway_upstream_replicas_ready',
      'Replicas whose last /readyz probe answered 200 and that have not refused a connection since (a service with one replica is not probed: 1 unless its last forward was refused)',
      (c) => c.ready,
    );
    this.forwards = counterOn(registry, {
      name: 'analyst_gateway_upstream_forwards_total',
      help: 'Requests each upstream replica answered or failed (a refused connection, or a read sent again to the next replica after a reset, is not counted)',
      labelNames: ['upstream', 'replica'],
    });
    this.refusals = counterOn(registry, {
      name: 'analyst_gateway_upstream_refused_total',
      help: 'Forwards refused at connect by an upstream replica (the request then goes to its next replica, if any)',
      labelNames: ['upstream', 'replica'],
    });
  }

  forwarded(service: UpstreamService, replica: Replica): void {
    this.forwards.inc({ upstream: service, replica: replica.id });
  }

  refused(service: UpstreamService, replica: Replica): void {
    this.refusals.inc({ upstream: service, replica: replica.id });
  }
}
