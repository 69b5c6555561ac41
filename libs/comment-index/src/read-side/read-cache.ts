import type { DailyMetric } from '@analyst/domain-analysis';
import type { PostCreated } from '@analyst/contracts';
import { eventsOf, type ReadCacheStats, type ReadStore, type RecordedEvent } from '@analyst/platform';
import type { CompactionPolicy, PostEntry, TeamIndex } from '../team-index/team-index';
import { materializePost } from '../team-index/materialized-post';
import { loadRows, postsWithoutRows } from './load-rows';
import { CachedTeam, routeOf } from './cached-team';

/**
 * The share of its memory budget the cache fills with teams. The rest is for the garbage that loading
 * teams leaves until the collector runs (decoded documents, replaced arrays): V8 lets it grow with
 * the live heap, so a cache filled to the whole budget grew the replica's resident memory by about
 * 1.5 times the budget (bench/read-side-scale.ts, every team touched).
 */
export const CACHE_LIVE_SHARE = 0.5;

const isPostCreated = eventsOf<PostCreated>(['PostCreated']);

/**
 * A replica's working set of teams: catalogs loaded from the read store on first use, comment rows
 * loaded per post version when a request needs them, both kept in least-recently-used order within
 * a byte budget. Nothing is folded from the log: the catalogs stay fresh from the events the
 * replica's own projections apply (`apply`), and a post version's rows never change once scored.
 * Any replica answers any team; what it holds is only a cache of the store.
 */
export class ReadCache {
  /** Cached teams, least recently used first. */
  private readonly teams = new Map<string, CachedTeam>();
  private readonly loading = new Map<string, Promise<CachedTeam>>();
  private readonly cachedOf = new WeakMap<TeamIndex, CachedTeam>();
  private readonly postTeam = new Map<string, CachedTeam>();
  /** Events applied while a team loads, folded into it once loaded (its memos skip the ones it has). */
  private readonly buffers = new Set<RecordedEvent[]>();
  private readonly rowLoads = new WeakMap<CachedTeam, Promise<void>>();
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

  stats(): ReadCacheStats {
    let bytes = 0;
    let rows = 0;
    for (const cached of this.teams.values()) {
      bytes += cached.bytes;
      rows += cached.team.columns.length - cached.team.deadRowCount;
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
   * The team's index with its catalog (posts, collections, settings, materialized post analyses), current with
   * every event this replica's projections have applied. Rows are not loaded: see `rows`.
   */
  async team(teamId: string): Promise<TeamIndex> {
    const cached = await this.cachedTeam(teamId);
    if (!this.withMaterialized) return cached.team;
    const missing = await cached.refreshStale(this.store);
    if (missing.length > 0) {
      // Stored by the projections' step; not there yet when another replica's catalog write ran ahead.
      await this.rowsOf(cached, missing);
      for (const post of missing) if (post.scored) materializePost(cached.team, post);
    }
    return cached.team;
  }

  /** Loads the rows of these posts' scored versions into the team's columns (those not loaded yet). */
  async rows(team: TeamIndex, posts: readonly PostEntry[]): Promise<void> {
    if (postsWithoutRows(posts).length === 0) return;
    const cached = this.cachedOf.get(team);
    if (!cached) throw new Error(`team ${team.teamId} was not loaded by this cache`);
    await this.rowsOf(cached, posts);
  }

  /**
   * The daily metrics of the post's analysis (null: it has none), read from the store on first use:
   * catalogs load post analyses without them.
   */
  async dailyMetrics(team: TeamIndex, post: PostEntry): Promise<DailyMetric[] | null> {
    const cached = this.cachedOf.get(team);
    if (!cached) throw new Error(`team ${team.teamId} was not loaded by this cache`);
    return cached.dailyMetrics(this.store, post);
  }

  /** Folds an event the projections applied into the cached team it belongs to, if cached or loading. */
  apply(event: RecordedEvent): void {
    for (const buffer of this.buffers) buffer.push(event);
    const cached = this.routed(event);
    if (cached) this.applyTo(cached, event);
  }

  private routed(event: RecordedEvent): CachedTeam | undefined {
    const { teamId, postId } = routeOf(event);
    if (teamId !== null) return this.teams.get(teamId);
    return postId !== null ? this.postTeam.get(postId) : undefined;
  }

  private applyTo(cached: CachedTeam, event: RecordedEvent): void {
    cached.apply(event);
    if (isPostCreated(event)) {
      const postId = event.data.postId;
      if (cached.team.postsById.has(postId) && this.teams.get(cached.team.teamId) === cached)
        this.postTeam.set(postId, cached);
    }
  }

  private async cachedTeam(teamId: string): Promise<CachedTeam> {
    const hit = this.teams.get(teamId);
    if (hit) {
      this.teams.delete(teamId);
      this.teams.set(teamId, hit);
      return hit;
    }
    let loading = this.loading.get(teamId);
    if (!loading) {
      loading = this.load(teamId).finally(() => this.loading.delete(teamId));
      this.loading.set(teamId, loading);
    }
    return loading;
  }

  private async load(teamId: string): Promise<CachedTeam> {
    const buffer: RecordedEvent[] = [];
    this.buffers.add(buffer);
    let cached: CachedTeam;
    try {
      cached = await CachedTeam.load(this.store, teamId, this.compaction);
    } finally {
      this.buffers.delete(buffer);
    }
    for (const event of buffer) if (cached.owns(event)) cached.apply(event);
    this.loads++;
    this.teams.set(teamId, cached);
    this.cachedOf.set(cached.team, cached);
    for (const post of cached.team.posts) this.postTeam.set(post.id, cached);
    this.trim(cached);
    return cached;
  }

  /** One row load at a time per team: a second waits and then loads only what is still missing. */
  private rowsOf(cached: CachedTeam, posts: readonly PostEntry[]): Promise<void> {
    const previous = this.rowLoads.get(cached) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => loadRows(this.store, cached.team, posts))
      .then(() => this.trim(cached));
    this.rowLoads.set(cached, next);
    return next;
  }

  /** Drops least recently used teams until the cache fits its budget (never `keep`, which is in use). */
  private trim(keep: CachedTeam): void {
    let bytes = 0;
    for (const cached of this.teams.values()) bytes += cached.bytes;
    for (const [teamId, cached] of this.teams) {
      if (bytes <= this.budgetBytes) break;
      if (cached === keep) continue;
      this.evict(teamId, cached);
      bytes -= cached.bytes;
    }
    // A team larger than the whole budget is dropped once its request is served.
    if (bytes > this.budgetBytes && this.teams.get(keep.team.teamId) === keep && this.teams.size > 0) {
      queueMicrotask(() => {
        if (this.teams.get(keep.team.teamId) === keep && keep.bytes > this.budgetBytes)
          this.evict(keep.team.teamId, keep);
      });
    }
  }

  private evict(teamId: string, cached: CachedTeam): void {
    this.teams.delete(teamId);
    this.evictions++;
    for (const post of cached.team.posts)
      if (this.postTeam.get(post.id) === cached) this.postTeam.delete(post.id);
  }
}
