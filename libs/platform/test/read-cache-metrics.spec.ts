import { Registry } from 'prom-client';
import { registerReadCacheMetrics, type ReadCacheStats } from '../src/nest/read-cache-metrics';

describe('read-side cache metrics', () => {
  const mib = 1024 * 1024;
  let stats: ReadCacheStats;
  beforeEach(() => {
    stats = {
      teams: 2,
      bytes: 3_000_000,
      rows: 6_000,
      budgetBytes: 256 * mib,
      liveBudgetBytes: 128 * mib,
      loads: 5,
      evictions: 1,
    };
  });

  it('reports the budget as configured, the share filled with teams beside it, and bytes per comment', async () => {
    const registry = new Registry();
    registerReadCacheMetrics(registry, 'analysis', () => stats);
    const text = await registry.metrics();
    expect(text).toContain(`analyst_read_cache_budget_bytes{cache="analysis"} ${256 * mib}`);
    expect(text).toContain(`analyst_read_cache_live_budget_bytes{cache="analysis"} ${128 * mib}`);
    expect(text).toContain('analyst_read_cache_bytes{cache="analysis"} 3000000');
    expect(text).toContain('analyst_read_cache_rows{cache="analysis"} 6000');
    expect(text).toContain('analyst_read_cache_bytes_per_comment{cache="analysis"} 500');
    expect(text).toContain('analyst_read_cache_teams{cache="analysis"} 2');
  });

  it('leaves bytes per comment out while the cache holds no comment rows', async () => {
    const registry = new Registry();
    stats = { ...stats, teams: 1, bytes: 400_000, rows: 0 };
    registerReadCacheMetrics(registry, 'sampling', () => stats);
    const text = await registry.metrics();
    expect(text).toContain('analyst_read_cache_rows{cache="sampling"} 0');
    expect(text).not.toMatch(/^analyst_read_cache_bytes_per_comment\{/m);
  });
});
