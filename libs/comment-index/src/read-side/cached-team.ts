import { DEFAULT_ROLLUP_SETTINGS, Vocabulary, type DailyMetric } from '@analyst/domain-analysis';
import {
  projects,
  streamKey,
  type Doc,
  type DomainEvent,
  type Projected,
  type Recorded,
  type Projection,
  type Projector,
  type ReadStore,
  type RecordedEvent,
} from '@analyst/platform';
import {
  DEFAULT_COMPACTION,
  TeamIndex,
  type CompactionPolicy,
  type PostEntry,
  type ScoredVersionInfo,
} from '../team-index/team-index';
import { materializedOf, setMaterialized } from '../team-index/materialized-post';
import {
  CATALOG_POSTS,
  catalogPostsProjector,
  type CatalogPostDoc,
} from '../read-models/catalog-posts.projector';
import {
  CATALOG_TEAMS,
  catalogTeamsProjector,
  settingsAt,
  type CatalogTeamDoc,
} from '../read-models/catalog-teams.projector';
import { POST_ANALYSES, postAnalysisId, type PostAnalysisDoc } from '../read-models/post-analyses.step';

/** The part of a stored post analysis a catalog leaves in the store until GET /posts/{id}/metrics asks. */
const DAILY_FIELD = 'materialized.metrics.daily';
/** How a catalog reads post analyses: without their daily metrics. */
export const POST_ANALYSIS_WITHOUT_DAYS: Projection = { [DAILY_FIELD]: 0 };

/** Rough bytes of a post's catalog entry, for the cache's budget. */
const POST_ENTRY_BYTES = 2_048;
/**
 * A materialized post analysis: its fixed part (mixes, scores, clouds, notables) and each day of its
 * daily metrics (five mixes and score means). A post of 1,000 comments over two months is about
 * 90 KB as BSON, most of it days.
 */
const MATERIALIZED_BYTES = 10_000;
const MATERIALIZED_DAY_BYTES = 1_300;
/**
 * Live memory per byte the arrays and strings add up to (V8's object headers, maps, spare room),
 * and what a team holds whatever its size (its vocabulary, index and catalog objects): fitted to
 * bench/read-side-team-bytes.ts, which sets the heap and array buffers a cached team holds after a
 * full GC beside what is counted, for teams of 2, 10 and 50 posts of 1,000 comments. The garbage
 * that loads leave until the collector runs is the cache's CACHE_LIVE_SHARE, not counted here.
 */
export const HELD_PER_COUNTED_BYTE = 1.12;
const TEAM_BYTES = 340 * 1024;

/**
 * One team as the read cache holds it: its `TeamIndex` (posts, collections and settings from the
 * catalog, and the rows loaded so far), the catalog documents they come from (with their per-stream
 * memos), and which posts' materialized analyses changed since they were read. Live events are folded into the documents with the
 * projectors' own `evolve`, skipping what a document's memo shows applied, so the catalog stays
 * equal to the store's however the load and the feed interleave.
 */
export class CachedTeam {
  readonly team: TeamIndex;
  private teamDoc: Projected<CatalogTeamDoc>;
  private readonly postDocs = new Map<string, Projected<CatalogPostDoc>>();
  /** Posts whose scored version changed: their post analysis is read (or computed) again. */
  readonly stale = new Set<string>();

  private constructor(
    teamId: string,
    teamDoc: Projected<CatalogTeamDoc> | null,
    compaction: CompactionPolicy = DEFAULT_COMPACTION,
  ) {
    this.team = new TeamIndex(teamId, new Vocabulary(), new Map(), compaction);
    this.teamDoc = teamDoc ?? { _id: teamId, settings: [], collections: [], _streams: {}, _version: 0 };
    this.team.known = teamDoc !== null;
    this.applyTeamDoc();
  }

  /**
   * The team's catalog as the read store holds it now. The posts are read before the team: every
   * writer projects in log order, so a post scored at position p is only stored once the settings
   * in force at p are, and reading the team second sees them.
   */
  static async load(store: ReadStore, teamId: string, compaction?: CompactionPolicy): Promise<CachedTeam> {
    const postDocs = await store
      .collection<Projected<CatalogPostDoc>>(CATALOG_POSTS)
      .find({ teamId }, { sort: { seq: 1 } });
    const teamDoc = await store.collection<Projected<CatalogTeamDoc>>(CATALOG_TEAMS).findOne({ _id: teamId });
    const cached = new CachedTeam(teamId, teamDoc, compaction);
    for (const doc of postDocs) cached.addPost(doc);
    return cached;
  }

  /** What the team costs the replica's memory, as the cache's budget counts it. */
  get bytes(): number {
    let counted = this.team.posts.length * POST_ENTRY_BYTES + this.team.rowBytes;
    for (const post of this.team.posts) {
      const materialized = materializedOf(post);
      if (materialized)
        counted += MATERIALIZED_BYTES + MATERIALIZED_DAY_BYTES * (materialized.metrics.daily?.length ?? 0);
    }
    return Math.round(TEAM_BYTES + counted * HELD_PER_COUNTED_BYTE);
  }

  /** Whether a live event belongs to this team (post events by the posts it holds). */
  owns(event: RecordedEvent): boolean {
    const { teamId, postId } = routeOf(event);
    if (teamId !== null) return teamId === this.team.teamId;
    return postId !== null && this.team.postsById.has(postId);
  }

  /** Folds a live event (of this team) into the catalog; one applied already is skipped. */
  apply(event: RecordedEvent): void {
    if (projects(catalogTeamsProjector, event)) {
      const next = evolved(catalogTeamsProjector, this.teamDoc, event, this.team.teamId);
      if (next) {
        this.teamDoc = next;
        this.team.known = true;
        this.applyTeamDoc();
        this.resolveSettings();
      }
      return;
    }
    if (!projects(catalogPostsProjector, event)) return;
    const postId = event.data.postId;
    const current = this.postDocs.get(postId) ?? null;
    const next = evolved(catalogPostsProjector, current, event, postId);
    if (!next) return;
    if (!current) this.addPost(next);
    else this.updatePost(next);
  }

  /**
   * Reads the materialized analyses of posts whose version changed (or that had none when loaded);
   * a post whose analysis is not stored yet keeps none, and `missing` lists it for the caller.
   */
  async refreshStale(store: ReadStore): Promise<PostEntry[]> {
    if (this.stale.size === 0) return [];
    const posts = [...this.stale].map((id) => this.team.postsById.get(id)!).filter(Boolean);
    this.stale.clear();
    return this.readMaterialized(store, posts);
  }

  private async readMaterialized(store: ReadStore, posts: readonly PostEntry[]): Promise<PostEntry[]> {
    const wanted = posts.filter((p) => p.version !== null);
    if (wanted.length === 0) return [];
    const ids = wanted.map((p) => postAnalysisId(p.id, p.version!.dataVersion));
    const docs = await store
      .collection<PostAnalysisDoc>(POST_ANALYSES)
      .find({ teamId: this.team.teamId, _id: { $in: ids } }, { projection: POST_ANALYSIS_WITHOUT_DAYS });
    const byId = new Map(docs.map((d) => [d._id, d]));
    const missing: PostEntry[] = [];
    for (const post of wanted) {
      const doc = byId.get(postAnalysisId(post.id, post.version!.dataVersion));
      const held = doc
        ? { ...doc.materialized, metrics: { totals: doc.materialized.metrics.totals, daily: null } }
        : null;
      setMaterialized(post, held);
      if (!doc) missing.push(post);
    }
    return missing;
  }

  /**
   * The daily metrics of the post's held analysis, read from the store the first time they are
   * asked for and kept with it from then on.
   */
  async dailyMetrics(store: ReadStore, post: PostEntry): Promise<DailyMetric[] | null> {
    const held = materializedOf(post);
    if (!held) return null;
    if (held.metrics.daily) return held.metrics.daily;
    const doc = await store
      .collection<PostAnalysisDoc>(POST_ANALYSES)
      .findOne(
        { teamId: this.team.teamId, _id: postAnalysisId(post.id, held.dataVersion) },
        { projection: { [DAILY_FIELD]: 1 } },
      );
    // Post analyses are written once and never removed: the one the catalog read is still there.
    const daily = doc?.materialized?.metrics?.daily;
    if (!daily)
      throw new Error(
        `the post analysis of post ${post.id} version ${held.dataVersion} has no daily metrics`,
      );
    held.metrics.daily = daily;
    return daily;
  }

  private applyTeamDoc(): void {
    const history = this.teamDoc.settings;
    const latest = history[history.length - 1];
    this.team.settings = latest
      ? { scoreVersion: latest.scoreVersion, engagementWeight: latest.engagementWeight }
      : { ...DEFAULT_ROLLUP_SETTINGS };
    this.team.collections.clear();
    for (const c of this.teamDoc.collections) this.team.collections.set(c.id, c);
  }

  /** Each version's settings from the history as it now stands (it can only have grown). */
  private resolveSettings(): void {
    for (const post of this.team.posts) {
      const doc = this.postDocs.get(post.id);
      if (!doc?.version || !post.version) continue;
      const settings = settingsAt(this.teamDoc.settings, doc.version.position);
      post.version.settings = settings;
      if (post.scored && post.scored.dataVersion === post.version.dataVersion)
        post.scored.settings = settings;
    }
  }

  private addPost(doc: Projected<CatalogPostDoc>): void {
    if (!doc.teamId || this.team.postsById.has(doc._id)) return;
    this.team.known = true;
    const post: PostEntry = {
      ...catalogFields(doc),
      id: doc._id,
      teamId: doc.teamId,
      index: this.team.posts.length,
      version: this.versionOf(doc),
      scored: null,
      pending: null,
    };
    this.postDocs.set(doc._id, doc);
    this.team.posts.push(post);
    this.team.postsById.set(post.id, post);
    if (post.version) this.stale.add(post.id);
  }

  private updatePost(doc: Projected<CatalogPostDoc>): void {
    const post = this.team.postsById.get(doc._id);
    this.postDocs.set(doc._id, doc);
    if (!post) return;
    Object.assign(post, catalogFields(doc));
    const version = this.versionOf(doc);
    const was = post.version;
    if (was?.dataVersion !== version?.dataVersion || was?.scoredAt !== version?.scoredAt) {
      post.version = version;
      setMaterialized(post, null);
      if (version) this.stale.add(post.id);
    }
  }

  private versionOf(doc: CatalogPostDoc): ScoredVersionInfo | null {
    const v = doc.version;
    if (!v) return null;
    return {
      dataVersion: v.dataVersion,
      topics: v.topics,
      messages: v.messages,
      scoredAt: v.scoredAt,
      settings: settingsAt(this.teamDoc.settings, v.position),
      source:
        v.fetch === null
          ? undefined
          : { fetch: v.fetch, chunks: v.chunks, ...(v.scores ? { scores: v.scores } : {}) },
    };
  }
}

/**
 * The team or the post a live event names in its data: team events and a post's first event carry
 * the team, a post's later events only the post.
 */
export function routeOf(event: RecordedEvent): { teamId: string | null; postId: string | null } {
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null) return { teamId: null, postId: null };
  return {
    teamId: 'teamId' in data && typeof data.teamId === 'string' ? data.teamId : null,
    postId: 'postId' in data && typeof data.postId === 'string' ? data.postId : null,
  };
}

/** The catalog fields of a post entry (what GET /posts lists and selections filter on). */
function catalogFields(
  doc: CatalogPostDoc,
): Omit<PostEntry, 'id' | 'teamId' | 'index' | 'version' | 'scored' | 'pending'> {
  return {
    link: doc.link,
    normalizedLink: doc.normalizedLink,
    platform: doc.platform,
    collectionIds: doc.collectionIds,
    tags: doc.tags,
    addedVia: doc.addedVia,
    addedBy: doc.addedBy,
    isDemo: doc.isDemo,
    status: doc.status,
    dataVersion: doc.dataVersion,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    lastRefreshedAt: doc.lastRefreshedAt,
    creator: doc.creator,
    title: doc.title,
    caption: doc.caption,
    description: doc.description,
    engagement: doc.engagement,
    postedAt: doc.postedAt,
    postType: doc.postType,
    thumbnail: doc.thumbnail,
    totalComments: doc.totalComments,
  };
}

/** The document after one event, as the projection runtime folds it; null when its memo has it. */
function evolved<D extends Doc, E extends DomainEvent>(
  projector: Projector<D, E>,
  doc: Projected<D> | null,
  event: Recorded<E>,
  id: string,
): Projected<D> | null {
  const key = streamKey(event.streamId);
  if ((doc?._streams?.[key] ?? -1) >= event.revision) return null;
  const { _streams, _version, ...plain } = doc ?? ({ _streams: {}, _version: 0 } as Projected<D>);
  const next = projector.evolve(doc ? (plain as unknown as D) : null, event, id);
  return { ...next, _streams: { ...(_streams ?? {}), [key]: event.revision }, _version: (_version ?? 0) + 1 };
}
