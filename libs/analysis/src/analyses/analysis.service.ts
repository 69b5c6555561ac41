import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  analysisStream,
  ANALYSIS_RETENTION_MS,
  type AnalysisCommand,
  type AnalysisCreatedData,
  type AnalysisEvent,
} from '@analyst/domain-analysis';
import { eventsOf } from '@analyst/eventsourcing';
import {
  CLOCK,
  EVENT_STORE,
  ID_GENERATOR,
  ProjectionService,
  READ_STORE,
  type Clock,
  type EventStore,
  type IdGenerator,
  type ReadStore,
} from '@analyst/platform';
import {
  ANALYSES,
  compileFilters,
  analysesProjector,
  CommentReadSide,
  computeAnalysis,
  foldAnalysisDoc,
  SEARCH_MODEL,
  SEARCH_SETUP,
  type SearchSetup,
  searchMatchedRows,
  type AnalysisDoc,
  type AnalysisResult,
  type PostEntry,
  type SearchModel,
  type SearchSpec,
  type TeamIndex,
} from '@analyst/comment-index';
import { AnalysisError } from '../errors/analysis-error';
import { findPosts } from '../posts/post-query';
import { parsePostQuery } from '../posts/parse-post-query';
import { AnalysisCommands } from './analysis-commands';
import { INLINE_LIMIT, MAX_SELECTION, type AnalysisRequest } from './analysis-request';

export const POLL_AFTER_MS = 3000;
/** Claims of one job before it fails: a job that keeps stopping its workers (out of memory, say) ends. */
export const MAX_JOB_ATTEMPTS = 3;
/** A queued job its creator has not claimed this long after it was queued is offered to every replica. */
export const UNCLAIMED_AFTER_MS = 5_000;

/** How this replica takes part in running jobs. */
export interface JobOptions {
  /** This worker's name on its claims (host, process, and a random part). */
  worker: string;
  /** ANALYST_JOB_STALE_MS. */
  staleMs: number;
}
export const JOB_OPTIONS = Symbol('AnalysisJobOptions');

const isCompleted = eventsOf<Extract<AnalysisEvent, { type: 'AnalysisCompleted' }>>(['AnalysisCompleted']);
/** The events an analysis document is folded from (its stream also holds the search's matched chunks). */
const isAnalysisEvent = eventsOf<AnalysisEvent>(analysesProjector.eventTypes);

/** Creates analyses, runs their jobs, and reads them back. */
@Injectable()
export class AnalysisService {
  private readonly logger = new Logger('Analyses');
  private readonly queue: string[] = [];
  private draining: Promise<void> | null = null;
  private running: string | null = null;
  /** Tests hold jobs to watch each state; production never pauses. */
  paused = false;

  constructor(
    private readonly commands: AnalysisCommands,
    private readonly projections: ProjectionService,
    private readonly readSide: CommentReadSide,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(SEARCH_MODEL) private readonly searchModel: SearchModel,
    @Inject(SEARCH_SETUP) private readonly search: SearchSetup,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(JOB_OPTIONS) private readonly jobs: JobOptions,
  ) {}

  /** Runs a command and waits until the read models show it; returns the events it appended. */
  private async run(analysisId: string, teamId: string, command: AnalysisCommand): Promise<AnalysisEvent[]> {
    const outcome = await this.append(analysisId, teamId, command);
    await this.projections.waitFor(outcome.position);
    return outcome.events;
  }

  /**
   * Runs a command without waiting for the read models. The projection applies the log in order, so
   * waiting for this append would also wait for every other team's writes stored before it (issue 38:
   * a neighbour's import made snapshots 3x slower). Only for commands whose readers wait for the
   * team's own head themselves (list) or read the analysis's stream (find, samples).
   */
  private append(analysisId: string, teamId: string, command: AnalysisCommand) {
    return this.commands.handle(analysisId, command, { correlationId: analysisId, teamId });
  }

  /** Resolves the selection newest first, cut at 1,000. */
  resolveSelection(team: TeamIndex, request: AnalysisRequest): { posts: PostEntry[]; truncated: boolean } {
    const s = request.selection;
    let posts: PostEntry[];
    if (s.type === 'postIds') {
      const unknown = s.postIds.filter((id) => !team.postsById.has(id));
      if (unknown.length > 0)
        throw new AnalysisError(
          'invalid_selection',
          `selection.postIds: not posts of this team: ${unknown.slice(0, 10).join(', ')}`,
        );
      posts = findPosts(team, { ...parsePostQuery({ status: 'all' }) }).filter((p) =>
        s.postIds.includes(p.id),
      );
    } else {
      const query = parsePostQuery({ ...(s.posts ?? {}), status: s.status });
      let within: Set<string> | null = null;
      if (s.type === 'collection') {
        if (!team.collections.has(s.collectionId))
          throw new AnalysisError(
            'invalid_selection',
            `selection.collectionId ${s.collectionId} is not a collection of this team`,
          );
        within = team.collectionTree(s.collectionId);
      }
      posts = findPosts(team, query, within);
    }
    if (posts.length === 0) throw new AnalysisError('empty_selection', 'the selection matches no posts');
    return { posts: posts.slice(0, MAX_SELECTION), truncated: posts.length > MAX_SELECTION };
  }

  /** Creates an analysis; an inline one comes back with its result as computed here, never read back. */
  async create(
    teamId: string,
    request: AnalysisRequest,
  ): Promise<{ doc: AnalysisDoc; result: AnalysisResult | null }> {
    const team = await this.readSide.team(teamId);
    const { posts, truncated } = this.resolveSelection(team, request);
    const now = this.clock.now();
    const analysisId = this.ids.next('an_');
    const ai = request.search?.mode === 'ai';
    const data: AnalysisCreatedData = {
      analysisId,
      teamId,
      // A keyword search stays a synchronous snapshot (spec, Kinds of analysis); only AI search is kind search.
      kind: request.search?.mode === 'ai' ? 'search' : 'snapshot',
      selection: request.selection,
      filters: request.filters,
      search: request.search,
      include: request.include,
      postIds: posts.map((p) => p.id),
      postCount: posts.length,
      selectionTruncated: truncated,
      settings: { ...team.settings },
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ANALYSIS_RETENTION_MS).toISOString(),
    };
    let result: AnalysisResult | null = null;
    let events: AnalysisEvent[];
    if (!ai && posts.length <= INLINE_LIMIT) {
      await this.readSide.rows(team, posts);
      result = computeAnalysis({
        team,
        posts,
        filter: compileFilters(request.filters, team),
        settings: data.settings,
        include: request.include,
      });
      ({ events } = await this.append(analysisId, teamId, {
        type: 'CreateAnalysis',
        data: { ...data, result },
      }));
    } else {
      ({ events } = await this.append(analysisId, teamId, { type: 'CreateAnalysis', data }));
      this.enqueue(analysisId);
    }
    // The document as the projection wrote it, folded from the events this request appended: the
    // creating request never reads it back (a lookup costs more as analyses pile up on some stores).
    const doc = foldAnalysisDoc(analysisId, events);
    if (!doc) throw new Error(`CreateAnalysis appended no AnalysisCreated for ${analysisId}`);
    return { doc, result: doc.status === 'ready' ? result : null };
  }

  /**
   * One analysis of the team with its result (when ready), both from its own stream: the event
   * store reads a stream by id through an index on every store, where a lookup in the `analyses`
   * read model scans the collection on FerretDB's SQLite backend. Null when unknown, another
   * team's, or expired.
   */
  async findWithResult(
    teamId: string,
    analysisId: string,
  ): Promise<{ doc: AnalysisDoc; result: AnalysisResult | null } | null> {
    const events = (await this.events.readStream(analysisStream(analysisId))).filter(isAnalysisEvent);
    const doc = this.visible(teamId, foldAnalysisDoc(analysisId, events));
    if (!doc) return null;
    const completed = doc.status === 'ready' && doc.kind !== 'report' ? events.find(isCompleted) : undefined;
    return { doc, result: completed ? completed.data.result : null };
  }

  enqueue(analysisId: string): void {
    if (this.queue.includes(analysisId) || this.running === analysisId) return;
    this.queue.push(analysisId);
    if (!this.paused) void this.drain();
  }

  /** Runs every queued job in order (one at a time). */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      while (this.queue.length > 0) {
        const analysisId = this.queue.shift()!;
        this.running = analysisId;
        try {
          await this.runJob(analysisId);
        } catch (error) {
          // Claiming or failing needs the event store; the sweep offers the job again.
          this.logger.warn(`analysis ${analysisId} could not run: ${String(error)}`);
        } finally {
          this.running = null;
        }
      }
      this.draining = null;
    })();
    return this.draining;
  }

  /**
   * Queues the open jobs this replica could take: queued ones its creator has not claimed within a
   * few seconds (it may have died before), and running ones quiet for longer than the stale bound
   * (their worker died or hangs). Claims decide who runs a job, so every replica may sweep.
   */
  async sweep(): Promise<number> {
    const now = this.clock.now().getTime();
    const open = await this.store
      .collection<AnalysisDoc>(ANALYSES)
      .find({ status: { $in: ['queued', 'running'] } }, { sort: { createdAt: 1 } });
    let offered = 0;
    for (const doc of open) {
      const idle = now - Date.parse(doc.updatedAt);
      if (doc.status === 'queued' ? idle >= UNCLAIMED_AFTER_MS : idle >= this.jobs.staleMs) {
        this.enqueue(doc._id);
        offered++;
      }
    }
    return offered;
  }

  /**
   * One job: claim → load → (search) → roll up → ready, reporting phase and percent; any error
   * fails it. Nothing runs unless this replica's claim is granted (the job is queued, or its worker
   * has been quiet past the stale bound); while it runs, progress is reported every third of that
   * bound, so a live worker is never taken over.
   */
  async runJob(analysisId: string, hooks: { beforeRollup?: () => Promise<void> } = {}): Promise<void> {
    const stream = (await this.events.readStream(analysisStream(analysisId))).filter(isAnalysisEvent);
    const doc = foldAnalysisDoc(analysisId, stream);
    if (!doc || (doc.status !== 'queued' && doc.status !== 'running')) return;
    const at = (): string => this.clock.now().toISOString();
    const claimed = await this.run(analysisId, doc.teamId, {
      type: 'ClaimAnalysis',
      data: {
        worker: this.jobs.worker,
        phase: 'loading_comments',
        at: at(),
        staleBefore: new Date(this.clock.now().getTime() - this.jobs.staleMs).toISOString(),
        maxAttempts: MAX_JOB_ATTEMPTS,
      },
    });
    if (!claimed.some((e) => e.type === 'AnalysisClaimed')) return;
    let progress = { phase: 'loading_comments', percent: 0 };
    const heartbeat = setInterval(
      () =>
        void this.run(analysisId, doc.teamId, {
          type: 'ReportProgress',
          data: { ...progress, at: at() },
        }).catch(
          () => undefined, // finished meanwhile, or the store is away: the next beat (or the sweep) tells
        ),
      Math.max(250, Math.floor(this.jobs.staleMs / 3)),
    );
    heartbeat.unref();
    try {
      const team = await this.readSide.team(doc.teamId);
      const posts = doc.postIds
        .map((id) => team.postsById.get(id))
        .filter((p): p is PostEntry => p !== undefined);
      await this.readSide.rows(team, posts);
      // Search matches are row numbers: no compaction may renumber rows until the rollup is done.
      const release = team.hold();
      let result: AnalysisResult;
      try {
        const request = { filters: doc.filters as AnalysisRequest['filters'], include: doc.include };
        const filter = compileFilters(request.filters, team);
        const search = doc.search as SearchSpec | null;
        let searchMatch: ((row: number) => boolean) | undefined;
        if (search?.mode === 'ai') {
          progress = { phase: 'searching', percent: 10 };
          await this.run(analysisId, doc.teamId, {
            type: 'ReportProgress',
            data: { ...progress, at: at() },
          });
          // The heartbeat reports how far the search is: embedding comments nobody embedded yet takes most of it.
          const matched = await searchMatchedRows(this.searchModel, team, posts, search, {
            embeddings: this.search.embeddings,
            onProgress: (f) => (progress = { phase: 'searching', percent: 10 + Math.floor(80 * f) }),
          });
          // On record, so samples of this analysis return exactly these comments (see SearchMatches).
          await this.run(analysisId, doc.teamId, {
            type: 'RecordSearchMatches',
            data: { commentIds: Array.from(matched, (r) => team.commentIds[r]), at: at() },
          });
          searchMatch = (row) => matched.has(row);
        }
        progress = { phase: 'rolling_up', percent: 90 };
        await this.run(analysisId, doc.teamId, {
          type: 'ReportProgress',
          data: { ...progress, at: at() },
        });
        await hooks.beforeRollup?.();
        result = computeAnalysis({
          team,
          posts,
          filter,
          settings: doc.settings!,
          include: request.include,
          searchMatch,
        });
      } finally {
        release();
      }
      await this.run(analysisId, doc.teamId, { type: 'CompleteAnalysis', data: { result, at: at() } });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(`analysis ${analysisId} failed: ${message}`);
      await this.run(analysisId, doc.teamId, {
        type: 'FailAnalysis',
        data: { message: `analysis failed: ${message}`, at: at() },
      });
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** One analysis of the team; null when unknown, another team's, or expired. */
  async find(teamId: string, analysisId: string): Promise<AnalysisDoc | null> {
    return (await this.findWithResult(teamId, analysisId))?.doc ?? null;
  }

  private visible(teamId: string, doc: AnalysisDoc | null): AnalysisDoc | null {
    if (!doc || doc.teamId !== teamId) return null;
    if (doc.expiresAt && Date.parse(doc.expiresAt) <= this.clock.now().getTime()) return null;
    return doc;
  }

  /** The team's analyses, newest first, as of every event of the team stored before the call. */
  async list(teamId: string, kind: string, limit: number): Promise<AnalysisDoc[]> {
    await this.projections.waitFor(await this.events.teamHeadPosition(teamId));
    const now = this.clock.now().toISOString();
    const filter: Record<string, unknown> = {
      teamId,
      $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
    };
    if (kind !== 'all') filter.kind = kind;
    return this.store
      .collection<AnalysisDoc>(ANALYSES)
      .find(filter, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  async saveReport(input: {
    teamId: string;
    campaignId: string;
    title: string;
    summary: string;
    savedBy: string | null;
  }): Promise<AnalysisDoc> {
    const team = await this.readSide.team(input.teamId);
    const campaign = team.collections.get(input.campaignId);
    if (!campaign || campaign.type !== 'campaign')
      throw new AnalysisError(
        'campaign_not_found',
        `campaign ${input.campaignId} not found on team ${input.teamId}`,
      );
    const posts = findPosts(team, parsePostQuery({}), team.collectionTree(input.campaignId)).slice(
      0,
      MAX_SELECTION,
    );
    const analysisId = this.ids.next('an_');
    await this.run(analysisId, input.teamId, {
      type: 'SaveReport',
      data: {
        analysisId,
        ...input,
        postIds: posts.map((p) => p.id),
        at: this.clock.now().toISOString(),
        expiresAt: null,
      },
    });
    return (await this.find(input.teamId, analysisId))!;
  }
}
