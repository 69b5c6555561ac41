import {
  ANALYST_CONFIG,
  EVENT_STORE,
  HttpMetrics,
  ProjectionService,
  READ_STORE,
  registerReadCacheMetrics,
  type AnalystConfig,
  type EventStore,
  type ReadStore,
} from '@analyst/platform';
import type { DailyMetric } from '@analyst/domain-analysis';
import type { CompactionPolicy, PostEntry, TeamIndex } from '../team-index/team-index';
import { commentReadSideProjectors, postAnalysesStepDefinition } from '../read-models/comment-read-models';
import { ReadCache } from './read-cache';

export interface CommentReadSideOptions {
  /** ANALYST_READ_CACHE_MB. */
  cacheMb: number;
  /** Analysis: stores each scored version's post analysis, and its catalogs carry them. */
  materializePosts: boolean;
  /** When a cached team's rows of replaced versions are dropped (ANALYSIS_COMPACT_MIN_DEAD_ROWS). */
  compaction?: CompactionPolicy;
}

/**
 * What analysis and sampling read comments through: the comment read models (registered with the
 * service's projections, which write them and report each applied event to the cache) and the
 * replica's cache of them. A request first waits until every event of its team stored before it
 * is projected (read-your-writes across services), then reads the team from the cache; other
 * teams' writes still unprojected do not hold it.
 */
export class CommentReadSide {
  readonly cache: ReadCache;

  constructor(
    private readonly projections: ProjectionService,
    store: ReadStore,
    private readonly events: EventStore,
    options: CommentReadSideOptions,
  ) {
    this.cache = new ReadCache(
      store,
      options.cacheMb * 1024 * 1024,
      options.materializePosts,
      options.compaction,
    );
    projections.register(...commentReadSideProjectors);
    if (options.materializePosts) projections.registerStep(postAnalysesStepDefinition.create(store, events));
    projections.onApplied((event) => this.cache.apply(event));
  }

  /** Resolves once every event stored now is projected (the whole log: benches, rebuilds). */
  async current(timeoutMs?: number): Promise<void> {
    await this.projections.waitFor(await this.events.headPosition(), timeoutMs);
  }

  /**
   * The team as of every event stored before the call that can change it: the team's own (every
   * write for a team carries it as metadata.teamId, its requests' and their reactions') and system
   * events (teamId null: seeders, admin). Waiting for that position means every event before it is
   * projected too, the team's earlier ones included.
   */
  async team(teamId: string): Promise<TeamIndex> {
    await this.projections.waitFor(await this.events.teamHeadPosition(teamId));
    return this.cache.team(teamId);
  }

  /** The daily metrics of the post's analysis (read from the store the first time; null: none). */
  dailyMetrics(team: TeamIndex, post: PostEntry): Promise<DailyMetric[] | null> {
    return this.cache.dailyMetrics(team, post);
  }

  /** Makes the rows of these posts' scored versions readable in the team's columns. */
  rows(team: TeamIndex, posts: readonly PostEntry[]): Promise<void> {
    return this.cache.rows(team, posts);
  }
}

/**
 * The read side of a service from its configuration (ANALYST_READ_CACHE_MB,
 * ANALYSIS_COMPACT_MIN_DEAD_ROWS), with the cache on /metrics labelled by the service.
 */
export function createCommentReadSide(
  deps: {
    projections: ProjectionService;
    store: ReadStore;
    events: EventStore;
    config: AnalystConfig;
    metrics?: HttpMetrics;
  },
  service: 'analysis' | 'sampling',
): CommentReadSide {
  const readSide = new CommentReadSide(deps.projections, deps.store, deps.events, {
    cacheMb: deps.config.ANALYST_READ_CACHE_MB,
    compaction: { minDeadRows: deps.config.ANALYSIS_COMPACT_MIN_DEAD_ROWS },
    materializePosts: service === 'analysis',
  });
  if (deps.metrics) registerReadCacheMetrics(deps.metrics.registry, service, () => readSide.cache.stats());
  return readSide;
}

/** The service module's provider of its CommentReadSide (a plain factory provider, no decorators). */
export function commentReadSideProvider(service: 'analysis' | 'sampling') {
  return {
    provide: CommentReadSide,
    inject: [
      ProjectionService,
      READ_STORE,
      EVENT_STORE,
      ANALYST_CONFIG,
      { token: HttpMetrics, optional: true },
    ],
    useFactory: (
      projections: ProjectionService,
      store: ReadStore,
      events: EventStore,
      config: AnalystConfig,
      metrics?: HttpMetrics,
    ): CommentReadSide => createCommentReadSide({ projections, store, events, config, metrics }, service),
  };
}
