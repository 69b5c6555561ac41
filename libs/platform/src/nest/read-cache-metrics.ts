import type { Registry } from 'prom-client';
import { gaugeOn } from './registry-metrics';

/** What a replica's read-side cache reports (ReadSideCache.stats in @analyst/comment-index). */
export interface ReadCacheStats {
  teams: number;
  bytes: number;
  budgetBytes: number;
  loads: number;
  evictions: number;
}

/**
 * The read-side cache on /metrics, labelled by the cache (`analysis`, `sampling`): what it holds
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
  const metric = (name: string, help: string, value: (s: ReadCacheStats) => number) => {
    gaugeOn(registry, {
      name,
      help,
      labelNames: ['cache'],
      collect() {
        this.reset();
        for (const [label, read] of sources) this.set({ cache: label }, value(read()));
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
    'The read-side cache budget (ANALYST_READ_CACHE_MB)',
    (s) => s.budgetBytes,
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
