import { Inject, Injectable, Logger } from '@nestjs/common';
import { analysisStream } from '@analyst/domain-analysis';
import {
  CLOCK,
  EVENT_STORE,
  PeriodicTask,
  READ_STORE,
  type Clock,
  type EventStore,
  type ReadStore,
} from '@analyst/platform';
import { ANALYSES, analysisDocOfStream, type AnalysisDoc } from '@analyst/analyses-read';
import {
  CommentReadSide,
  compileFilters,
  computeAnalysis,
  SEARCH_MODEL,
  SEARCH_SETUP,
  searchMatchedRows,
  type AnalysisResult,
  type PostEntry,
  type SearchModel,
  type SearchSetup,
  type SearchSpec,
  type TeamIndex,
} from '@analyst/comment-index';
import { AnalysisCommands } from './analysis-commands';

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

type JobProgress = { phase: string; percent: number };

/**
 * Runs analysis jobs (AI search, or more than 100 posts) in this process, one at a time: the ones
 * created here, and open ones the sweep finds (their creator died, or their worker went quiet).
 * Claims decide who runs a job, so every replica may sweep. From start() (at application
 * bootstrap) to stop() (at shutdown) it drains its queue on its own and sweeps every few seconds.
 */
@Injectable()
export class AnalysisJobWorker {
  private readonly logger = new Logger('Analyses');
  private readonly queue: string[] = [];
  private draining: Promise<void> | null = null;
  private running: string | null = null;
  private sweeper: PeriodicTask | null = null;

  constructor(
    private readonly commands: AnalysisCommands,
    private readonly readSide: CommentReadSide,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SEARCH_MODEL) private readonly searchModel: SearchModel,
    @Inject(SEARCH_SETUP) private readonly search: SearchSetup,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(JOB_OPTIONS) private readonly jobs: JobOptions,
  ) {}

  /** Takes jobs from now on: drains what is queued, and sweeps at once and every half the stale bound (0.5 to 5 s). */
  start(): void {
    if (this.sweeper) return;
    this.sweeper = new PeriodicTask(
      Math.min(5_000, Math.max(500, Math.floor(this.jobs.staleMs / 2))),
      () => this.sweep(),
      (error) => this.logger.warn(`sweeping open analysis jobs failed: ${String(error)}`),
    );
    this.sweeper.start(true);
    if (this.queue.length > 0) void this.drain();
  }

  /** Takes no more jobs on its own (the one running goes on; queued ones stay for drain() or another replica's sweep). */
  async stop(): Promise<void> {
    const sweeper = this.sweeper;
    this.sweeper = null;
    await sweeper?.stop();
  }

  /** Queues a job; a started worker runs it as soon as the ones before it are done. */
  enqueue(analysisId: string): void {
    if (this.queue.includes(analysisId) || this.running === analysisId) return;
    this.queue.push(analysisId);
    if (this.sweeper) void this.drain();
  }

  /** Runs every queued job in order (one at a time); resolves when the queue is empty. */
  drain(): Promise<void> {
    // Only with a job to run: an empty run would end (and clear `draining`) before being assigned,
    // leaving a settled promise that every later drain() returned without running anything.
    if (!this.draining && this.queue.length > 0) this.draining = this.runQueued();
    return this.draining ?? Promise.resolve();
  }

  private async runQueued(): Promise<void> {
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
  }

  /**
   * Queues the open jobs this replica could take: queued ones its creator has not claimed within a
   * few seconds (it may have died before), and running ones quiet for longer than the stale bound
   * (their worker died or hangs).
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
  async runJob(analysisId: string): Promise<void> {
    const doc = analysisDocOfStream(analysisId, await this.events.readStream(analysisStream(analysisId)));
    if (!doc || (doc.status !== 'queued' && doc.status !== 'running')) return;
    if (!(await this.claim(doc))) return;
    const report = (progress: JobProgress) =>
      this.commands.recordAndProject(analysisId, doc.teamId, {
        type: 'ReportProgress',
        data: { ...progress, at: this.at() },
      });
    let progress: JobProgress = { phase: 'loading_comments', percent: 0 };
    const heartbeat = setInterval(
      // Finished meanwhile, or the store is away: the next beat (or the sweep) tells.
      () => void report(progress).catch(() => undefined),
      Math.max(250, Math.floor(this.jobs.staleMs / 3)),
    );
    heartbeat.unref();
    try {
      const result = await this.compute(doc, {
        report: async (next) => {
          progress = next;
          await report(next);
        },
        searching: (percent) => (progress = { phase: 'searching', percent }),
      });
      await this.commands.recordAndProject(analysisId, doc.teamId, {
        type: 'CompleteAnalysis',
        data: { result, at: this.at() },
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(`analysis ${analysisId} failed: ${message}`);
      await this.commands.recordAndProject(analysisId, doc.teamId, {
        type: 'FailAnalysis',
        data: { message: `analysis failed: ${message}`, at: this.at() },
      });
    } finally {
      clearInterval(heartbeat);
    }
  }

  private at(): string {
    return this.clock.now().toISOString();
  }

  /** Whether this worker's claim on the job was granted. */
  private async claim(doc: AnalysisDoc): Promise<boolean> {
    const claimed = await this.commands.recordAndProject(doc._id, doc.teamId, {
      type: 'ClaimAnalysis',
      data: {
        worker: this.jobs.worker,
        phase: 'loading_comments',
        at: this.at(),
        staleBefore: new Date(this.clock.now().getTime() - this.jobs.staleMs).toISOString(),
        maxAttempts: MAX_JOB_ATTEMPTS,
      },
    });
    return claimed.some((e) => e.type === 'AnalysisClaimed');
  }

  /** The job's rows loaded, searched when it is an AI search, and rolled up with the settings it was created with. */
  private async compute(
    doc: AnalysisDoc,
    steps: {
      report: (progress: JobProgress) => Promise<void>;
      searching: (percent: number) => void;
    },
  ): Promise<AnalysisResult> {
    const team = await this.readSide.team(doc.teamId);
    const posts = doc.postIds
      .map((id) => team.postsById.get(id))
      .filter((p): p is PostEntry => p !== undefined);
    await this.readSide.rows(team, posts);
    // Search matches are row numbers: no compaction may renumber rows until the rollup is done.
    const release = team.hold();
    try {
      const filter = compileFilters(doc.filters, team);
      let searchMatch: ((row: number) => boolean) | undefined;
      if (doc.search?.mode === 'ai') {
        await steps.report({ phase: 'searching', percent: 10 });
        const matched = await this.searchMatches(doc, team, posts, doc.search, steps.searching);
        searchMatch = (row) => matched.has(row);
      }
      await steps.report({ phase: 'rolling_up', percent: 90 });
      return computeAnalysis({
        team,
        posts,
        filter,
        settings: doc.settings!,
        include: doc.include,
        searchMatch,
      });
    } finally {
      release();
    }
  }

  /** The rows an AI search matches, put on record so samples of the analysis return exactly these comments (see SearchMatches). */
  private async searchMatches(
    doc: AnalysisDoc,
    team: TeamIndex,
    posts: PostEntry[],
    search: SearchSpec,
    searching: (percent: number) => void,
  ): Promise<Set<number>> {
    // The heartbeat reports how far the search is: embedding comments nobody embedded yet takes most of it.
    const matched = await searchMatchedRows(this.searchModel, team, posts, search, {
      embeddings: this.search.embeddings,
      onProgress: (f) => searching(10 + Math.floor(80 * f)),
    });
    await this.commands.recordAndProject(doc._id, doc.teamId, {
      type: 'RecordSearchMatches',
      data: { commentIds: Array.from(matched, (r) => team.commentIds[r]), at: this.at() },
    });
    return matched;
  }
}
