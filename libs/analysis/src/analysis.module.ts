import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Inject,
  Logger,
  Module,
  Optional,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import {
  ANALYST_CONFIG,
  counterOn,
  gaugeOn,
  HttpMetrics,
  ProjectionService,
  registerOpenApiSchemas,
  type AnalystConfig,
} from '@analyst/platform';
import { localEncoderFromEnv, localModelProblem } from '@analyst/encoder';
import { AnalysesController } from './analyses/analyses.controller';
import {
  CommentReadSide,
  commentReadSideProvider,
  embedsAtIngest,
  INGEST_EMBED_QUEUE,
  IngestEmbedder,
  SEARCH_MODEL,
  SEARCH_SETUP,
  searchSetupProvider,
  type SearchModel,
  type SearchSetup,
} from '@analyst/comment-index';
import { analysisReadModels } from './analysis-read-models';
import { AnalysisCommands } from './analyses/analysis-commands';
import { AnalysisJobWorker, JOB_OPTIONS, type JobOptions } from './analyses/analysis-job-worker';
import { AnalysisQueries } from './analyses/analysis-queries';
import { CreateAnalysisController } from './create-analysis/create-analysis.controller';
import { CreateAnalysisHandler } from './create-analysis/create-analysis.handler';
import { POST_CURSORS, PostCursors } from './posts/post-cursor';
import { CollectionsController, PostsController } from './posts/posts.controller';
import { AdminReportsController } from './reports/admin-reports.controller';
import { ANALYSIS_OPENAPI_SCHEMAS } from './openapi-schemas';
import { SaveReportHandler } from './reports/save-report.handler';
import { SavedAnalysesController } from './reports/saved-analyses.controller';
import { SavedAnalysisCommands } from './reports/saved-analysis-commands';

// The schemas the controllers reference, in every document an app with this module serves.
registerOpenApiSchemas(ANALYSIS_OPENAPI_SCHEMAS);

/** Analyses, post analyses and metrics, the post and collection catalog, reports, saved analyses. */
@Module({
  controllers: [
    // Before AnalysesController: the document lists POST /analyses before GET /analyses, as it always did.
    CreateAnalysisController,
    AnalysesController,
    PostsController,
    CollectionsController,
    SavedAnalysesController,
    AdminReportsController,
  ],
  providers: [
    commentReadSideProvider('analysis'),
    AnalysisCommands,
    SavedAnalysisCommands,
    CreateAnalysisHandler,
    AnalysisJobWorker,
    AnalysisQueries,
    SaveReportHandler,
    {
      provide: JOB_OPTIONS,
      inject: [ANALYST_CONFIG],
      useFactory: (config: AnalystConfig): JobOptions => ({
        worker: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
        staleMs: config.ANALYST_JOB_STALE_MS,
      }),
    },
    searchSetupProvider(localEncoderFromEnv),
    { provide: SEARCH_MODEL, inject: [SEARCH_SETUP], useFactory: (setup: SearchSetup) => setup.model },
    {
      provide: POST_CURSORS,
      inject: [{ token: ANALYST_CONFIG, optional: true }],
      useFactory: (config?: AnalystConfig) => new PostCursors(config?.ANALYST_INTERNAL_SECRET),
    },
  ],
  exports: [CommentReadSide],
})
export class AnalysisModule implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Analyses');

  constructor(
    private readonly projections: ProjectionService,
    private readonly jobs: AnalysisJobWorker,
    @Inject(SEARCH_SETUP) private readonly search: SearchSetup,
    @Optional() private readonly metrics?: HttpMetrics,
  ) {}

  /** Same module with another search model (tests, or a model chosen by the app). */
  static forRoot(options: { searchModel?: SearchModel } = {}): DynamicModule {
    return {
      module: AnalysisModule,
      providers: options.searchModel ? [{ provide: SEARCH_MODEL, useValue: options.searchModel }] : [],
    };
  }

  async onModuleInit(): Promise<void> {
    // CommentReadSide registers the comment read models too; a projector registered twice is kept once.
    this.projections.register(...analysisReadModels.projectors);
    if (this.search.notice) this.logger.log(this.search.notice);
    // Said at start, not at the first search: a missing model fails every AI search job.
    const problem = this.search.embeddings ? await localModelProblem() : null;
    if (problem) this.logger.error(`AI search cannot run: ${problem}`);
    if (this.search.embeddings && embedsAtIngest(process.env)) {
      const chunks = this.metrics
        ? counterOn(this.metrics.registry, {
            name: 'analyst_ingest_embedding_chunks_total',
            help: 'Comment chunks handed to the embedder at ingest, by outcome: embedded here, skipped (another replica claimed or stored it), deferred (queue full or failed: the first search that reads them embeds them)',
            labelNames: ['outcome'],
          })
        : null;
      const embedder = new IngestEmbedder(
        this.search.embeddings,
        (error) =>
          this.logger.warn(
            `embedding comments at ingest failed (a search will embed them): ${String(error)}`,
          ),
        INGEST_EMBED_QUEUE,
        (outcome) => chunks?.inc({ outcome }),
      );
      if (this.metrics)
        gaugeOn(this.metrics.registry, {
          name: 'analyst_ingest_embedding_queue_comments',
          help: 'Comments waiting to be embedded at ingest (at most 20,000; past it chunks are deferred to the first search)',
          collect() {
            this.set(embedder.queuedComments);
          },
        });
      this.projections.onApplied((event) => embedder.apply(event));
    }
  }

  /** Runs jobs from here on: what a stopped replica left is offered at once, and by a sweep every few seconds. */
  onApplicationBootstrap(): void {
    this.jobs.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.jobs.stop();
  }
}
