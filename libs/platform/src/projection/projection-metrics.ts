import type { Counter, Gauge, Registry } from 'prom-client';
import { counterOn, gaugeOn } from '../nest/registry-metrics';
import type { ProjectionHealth } from './projection-health';

/** A gauge per projection, set from their health when scraped. */
function gauge(
  registry: Registry,
  name: string,
  help: string,
  collect: (g: Gauge<'projection'>) => Promise<void>,
): Gauge<'projection'> {
  return gaugeOn(registry, {
    name,
    help,
    labelNames: ['projection'],
    collect() {
      return collect(this);
    },
  });
}

/** A projection reported on a registry, and how to read its log head at scrape (none: what it knows). */
interface TrackedProjection {
  health: ProjectionHealth;
  readHead?: () => Promise<void>;
}

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
): Counter<L> {
  return counterOn(registry, { name, help, labelNames });
}

/**
 * Projection metrics on the process's Prometheus registry (HttpMetrics.registry). Lag and positions
 * are computed from each projection's ProjectionHealth when scraped, after a head read (the one
 * read is shared by every gauge of the scrape), so nothing is set per event and no burst between
 * two polls goes unseen.
 */
export class ProjectionMetrics {
  private static readonly registries = new WeakMap<Registry, Map<string, TrackedProjection>>();
  private readonly conflicts: Counter<'projection' | 'collection' | 'index'>;
  private readonly failures: Counter<'projection'>;
  private readonly restarts: Counter<'projection'>;
  /** Projections reported on this registry; shared by every ProjectionMetrics built on it. */
  private readonly sources: Map<string, TrackedProjection>;

  constructor(registry: Registry) {
    if (!ProjectionMetrics.registries.has(registry)) ProjectionMetrics.registries.set(registry, new Map());
    const sources = ProjectionMetrics.registries.get(registry)!;
    this.sources = sources;
    const each = async (g: Gauge<'projection'>, value: (h: ProjectionHealth) => number) => {
      await Promise.all([...sources.values()].map((s) => s.readHead?.()));
      g.reset();
      for (const [projection, { health }] of sources) g.set({ projection }, value(health));
    };
    gauge(
      registry,
      'analyst_projection_lag_events',
      'Global log positions between the last applied event and the highest log position the process knows at scrape (pages read, its own writes, a head read at scrape): events on the SQLite log; commit-position bytes on EventStoreDB, where only zero vs not zero is exact',
      (g) => each(g, (h) => h.lagPositions),
    );
    gauge(
      registry,
      'analyst_projection_lag_seconds',
      'Age of the oldest event not yet applied that the process knows of (from its recorded time once read from the log, else from when the process learned of it); 0 when caught up',
      (g) => each(g, (h) => h.lagSeconds),
    );
    gauge(registry, 'analyst_projection_position', 'Global log position of the last applied event', (g) =>
      each(g, (h) => h.position),
    );
    gauge(
      registry,
      'analyst_projection_head_position',
      'Highest global log position the process knows at scrape',
      (g) => each(g, (h) => h.head),
    );
    gauge(
      registry,
      'analyst_projection_failing_seconds',
      'How long the projection has been failing and retrying without success; 0 when healthy',
      (g) => each(g, (h) => h.failingForMs / 1000),
    );
    this.conflicts = counter(
      registry,
      'analyst_projection_conflicts_total',
      'Document writes skipped because another document holds the same unique value',
      ['projection', 'collection', 'index'],
    );
    this.failures = counter(
      registry,
      'analyst_projection_failures_total',
      'Failed attempts to apply an event, each retried with backoff',
      ['projection'],
    );
    this.restarts = counter(
      registry,
      'analyst_projection_restarts_total',
      'Subscriptions to the log restarted after they ended with an error',
      ['projection'],
    );
  }

  /** Reports `health` under `projection` on every scrape from now on, after `readHead` if given. */
  track(projection: string, health: ProjectionHealth, readHead?: () => Promise<void>): void {
    this.sources.set(projection, { health, readHead });
  }

  untrack(projection: string): void {
    this.sources.delete(projection);
  }

  conflict(projection: string, collection: string, index: string): void {
    this.conflicts.inc({ projection, collection, index });
  }

  failure(projection: string): void {
    this.failures.inc({ projection });
  }

  restart(projection: string): void {
    this.restarts.inc({ projection });
  }
}
