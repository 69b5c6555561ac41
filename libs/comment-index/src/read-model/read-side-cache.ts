import type { DailyMetric } from '@analyst/domain-analysis';
import type { ReadStore, RecordedEvent } from '@analyst/platform';
import type { CompactionPolicy, PostEntry, TeamIndex } from '../comment-index';
import { materializePost } from '../index-feed';
import { loadRows, postsWithoutRows } from './load-rows';
import { TeamCatalog } from './team-catalog';

/**
 * The share of its memory budget the cache fills with teams. The rest is for the garbage that loading
 * teams leaves until the collector runs (decoded documents, replaced arrays): V8 lets it grow with
 * the live heap, so a cache filled to the whole budget grew the replica's resident memory by about
 * 1.5 times the budget (bench/read-side-scale.ts, every team touched).
 */
export const CACHE_LIVE_SHARE = 0.5;

export interface ReadSideCacheStats {
  teams: number;
  bytes: number;
  /** Comment rows the cached teams hold (their posts' loaded versions, rows no version uses excluded). */
  rows: number;
  /** The memory the cache may add to the replica (ANALYST_READ_CACHE_MB). */
  budgetBytes: number;
  /** What the cache fills with teams: `CACHE_LIVE_SHARE` of `budgetBytes`. */
  liveBudgetBytes: number;
  loads: number;
  evictions: number;
}

/**
 * A replica's working set of teams: catalogs loaded from the read store on first use, comment rows
 * loaded per post version when a request needs them, both kept in least-recently-used order within
 * a byte budget. Nothing is folded from the log: the catalogs stay fresh from the events the
 * replica's own projections apply (`apply`), and a post version's rows never change once scored.
 * Any replica answers any team; what it holds is only a cache of the store.
 */
export class ReadSideCache {
  /** Cached catalogs, least recently used first. */
  private readonly teams = new Map<string, TeamCatalog>();
  private readonly loading = new Map<string, Promise<TeamCatalog>>();
  private readonly catalogOf = new WeakMap<TeamIndex, TeamCatalog>();
  private readonly postTeam = new Map<string, TeamCatalog>();
  /** Events applied while a catalog loads, folded into it once loaded (its memos skip the ones it has). */
  private readonly buffers = new Set<RecordedEvent[]>();
  private readonly rowLoads = new WeakMap<TeamCatalog, Promise<void>>();
  private loads = 0;
  private evictions = 0;

  /** What the cache fills to (see CACHE_LIVE_SHARE). */
  private readonly budgetBytes: number;

  constructor(
    private readonly store: ReadStore,
    /** The memory the cache may add to the replica's (ANALYST_READ_CACHE_MB). */
    private readonly memoryBudgetBytes: number,
    /** Whether catalogs carry the posts' materialized analyses (analysis does; sampling needs none). */
    private readonly withMaterialized = true,
    private readonly compaction?: CompactionPolicy,
  ) {
    this.budgetBytes = Math.floor(memoryBudgetBytes * CACHE_LIVE_SHARE);
  }

  stats(): ReadSideCacheStats {
    let bytes = 0;
    let rows = 0;
    for (const catalog of this.teams.values()) {
      bytes += catalog.bytes;
      rows += catalog.team.columns.length - catalog.team.deadRowCount;
    }
    return {
      teams: this.teams.size,
      bytes,
      rows,
      budgetBytes: this.memoryBudgetBytes,
      liveBudgetBytes: this.budgetBytes,
      loads: this.loads,
      evictions: this.evictions,
    };
  }

  /**
   * The team's catalog (posts, collections, settings, materialized post analyses), current with
   * every event this replica's projections have applied. Rows are not loaded: see `rows`.
   */
  async team(teamId: string): Promise<TeamIndex> {
    const catalog = await this.catalog(teamId);
    if (!this.withMaterialized) return catalog.team;
    const missing = await catalog.refreshStale(this.store);
    if (missing.length > 0) {
      // Stored by the projections' step; not there yet when another replica's catalog write ran ahead.
      await this.rowsOf(catalog, missing);
      for (const post of missing) if (post.scored) materializePost(catalog.team, post);
    }
    return catalog.team;
  }

  /** Loads the rows of these posts' scored versions into the team's columns (those not loaded yet). */
  async rows(team: TeamIndex, posts: readonly PostEntry[]): Promise<void> {
    if (postsWithoutRows(posts).length === 0) return;
    const catalog = this.catalogOf.get(team);
    if (!catalog) throw new Error(`team ${team.teamId} was not loaded by this cache`);
    await this.rowsOf(catalog, posts);
  }

  /**
   * The daily metrics of the post's analysis (null: it has none), read from the store on first use:
   * catalogs load post analyses without them.
   */
  async dailyMetrics(team: TeamIndex, post: PostEntry): Promise<DailyMetric[] | null> {
    const catalog = this.catalogOf.get(team);
    if (!catalog) throw new Error(`team ${team.teamId} was not loaded by this cache`);
    return catalog.dailyMetrics(this.store, post);
  }

  /** Folds an event the projections applied into the catalog it belongs to, if cached or loading. */
  apply(event: RecordedEvent): void {
    for (const buffer of this.buffers) buffer.push(event);
    const catalog = this.routed(event);
    if (catalog) this.applyTo(catalog, event);
  }

  private routed(event: RecordedEvent): TeamCatalog | undefined {
    const data = event.data as { teamId?: unknown; postId?: unknown } | null;
    if (typeof data?.teamId === 'string') return this.teams.get(data.teamId);
    return typeof data?.postId === 'string' ? this.postTeam.get(data.postId) : undefined;
  }

  private applyTo(catalog: TeamCatalog, event: RecordedEvent): void {
    catalog.apply(event);
    if (event.type === 'PostCreated') {
      const postId = (event.data as { postId: string }).postId;
      if (catalog.team.postsById.has(postId) && this.teams.get(catalog.team.teamId) === catalog)
        this.postTeam.set(postId, catalog);
    }
  }

  private async catalog(teamId: string): Promise<TeamCatalog> {
    const cached = this.teams.get(teamId);
    if (cached) {
      this.teams.delete(teamId);
      this.teams.set(teamId, cached);
      return cached;
    }
    let loading = this.loading.get(teamId);
    if (!loading) {
      loading = this.load(teamId).finally(() => this.loading.delete(teamId));
      this.loading.set(teamId, loading);
    }
    return loading;
  }

  private async load(teamId: string): Promise<TeamCatalog> {
    const buffer: RecordedEvent[] = [];
    this.buffers.add(buffer);
    let catalog: TeamCatalog;
    try {
      catalog = await TeamCatalog.load(this.store, teamId, this.compaction);
    } finally {
      this.buffers.delete(buffer);
    }
    for (const event of buffer) if (catalog.owns(event)) catalog.apply(event);
    this.loads++;
    this.teams.set(teamId, catalog);
    this.catalogOf.set(catalog.team, catalog);
    for (const post of catalog.team.posts) this.postTeam.set(post.id, catalog);
    this.trim(catalog);
    return catalog;
  }

  /** One row load at a time per team: a second waits and then loads only what is still missing. */
  private rowsOf(catalog: TeamCatalog, posts: readonly PostEntry[]): Promise<void> {
    const previous = this.rowLoads.get(catalog) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => loadRows(this.store, catalog.team, posts))
      .then(() => this.trim(catalog));
    this.rowLoads.set(catalog, next);
    return next;
  }

  /** Drops least recently used teams until the cache fits its budget (never `keep`, which is in use). */
  private trim(keep: TeamCatalog): void {
    let bytes = 0;
    for (const catalog of this.teams.values()) bytes += catalog.bytes;
    for (const [teamId, catalog] of this.teams) {
      if (bytes <= this.budgetBytes) break;
      if (catalog === keep) continue;
      this.evict(teamId, catalog);
      bytes -= catalog.bytes;
    }
    // A team larger than the whole budget is dropped once its request is served.
    if (bytes > this.budgetBytes && this.teams.get(keep.team.teamId) === keep && this.teams.size > 0) {
      queueMicrotask(() => {
        if (this.teams.get(keep.team.teamId) === keep && keep.bytes > this.budgetBytes)
          this.evict(keep.team.teamId, keep);
      });
    }
  }

  private evict(teamId: string, catalog: TeamCatalog): void {
    this.teams.delete(teamId);
    this.evictions++;
    for (const post of catalog.team.posts)
      if (this.postTeam.get(post.id) === catalog) this.postTeam.delete(post.id);
  }
}
