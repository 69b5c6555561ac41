import type { Registry } from 'prom-client';
import { gaugeOn } from './registry-metrics';

/** What a replica's read cache reports (ReadCache.stats in @analyst/comment-index). */
export interface ReadCacheStats {
  teams: number;
  bytes: number;
  /** Comment rows the cached teams hold. */
  rows: number;
  /** ANALYST_READ_CACHE_MB in bytes. */
  budgetBytes: number;
  /** The part of the budget the cache fills with teams; the rest is room for the collector's garbage. */
  liveBudgetBytes: number;
  loads: number;
  evictions: number;
}

/**
 * The read cache on /metrics, labelled by the cache (`analysis`, `sampling`): what it holds
 * against its budget, and how often teams are loaded and dropped. Loads that keep rising with
 * evictions mean the working set does not fit: raise ANALYST_READ_CACHE_MB (and the memory limit)
 * or add replicas. Read when scraped, so nothing is set per request.
 */
export function registerReadCacheMetrics(
  registry: Registry,
  cache: string,
  stats: () => ReadCacheStats,
): void {
  const sources = sourcesOf(registry);
  sources.set(cache, stats);
  /** `value` null: no series for that cache at this scrape. */
  const metric = (name: string, help: string, value: (s: ReadCacheStats) => number | null) => {
    gaugeOn(registry, {
      name,
      help,
      labelNames: ['cache'],
      collect() {
        this.reset();
        for (const [label, read] of sources) {
          const v = value(read());
          if (v !== null) this.set({ cache: label }, v);
        }
      },
    });
  };
  metric(
    'analyst_read_cache_bytes',
    'Bytes the read-side cache holds (its estimate of columns, strings and catalogs)',
    (s) => s.bytes,
  );
  metric(
    'analyst_read_cache_budget_bytes',
    'The memory the read-side cache may add to the replica (ANALYST_READ_CACHE_MB in bytes)',
    (s) => s.budgetBytes,
  );
  metric(
    'analyst_read_cache_live_budget_bytes',
    'What the read-side cache fills with teams before dropping the least recently used: a share of its budget, the rest left for the garbage that loading teams leaves until the collector runs',
    (s) => s.liveBudgetBytes,
  );
  metric('analyst_read_cache_rows', 'Comment rows the cached teams hold', (s) => s.rows);
  metric(
    'analyst_read_cache_bytes_per_comment',
    'Bytes the read-side cache holds per comment row it holds (catalogs and post analyses included); absent while it holds none',
    (s) => (s.rows > 0 ? s.bytes / s.rows : null),
  );
  metric('analyst_read_cache_teams', 'Teams whose catalog the read-side cache holds', (s) => s.teams);
  metric(
    'analyst_read_cache_loads_total',
    'Team catalogs loaded from the read store since start',
    (s) => s.loads,
  );
  metric(
    'analyst_read_cache_evictions_total',
    'Teams dropped to stay within the budget since start',
    (s) => s.evictions,
  );
}

const registries = new WeakMap<Registry, Map<string, () => ReadCacheStats>>();
function sourcesOf(registry: Registry): Map<string, () => ReadCacheStats> {
  let sources = registries.get(registry);
  if (!sources) registries.set(registry, (sources = new Map()));
  return sources;
}
