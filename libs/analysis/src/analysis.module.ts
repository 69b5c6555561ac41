import { Module, type DynamicModule, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import {
  ANALYST_CONFIG,
  EVENT_STORE,
  ProjectionService,
  READ_STORE,
  registerOpenApiSchemas,
  type AnalystConfig,
  type EventStore,
  type ReadStore,
} from '@analyst/platform';
import { AnalysesController } from './analyses/analyses.controller';
import {
  analysesProjector,
  savedAnalysesProjector,
  Bm25SearchModel,
  CommentReadSide,
  EmbeddingsSearchModel,
  SEARCH_MODEL,
  type SearchModel,
} from '@analyst/comment-index';
import { AnalysisService } from './analyses/analysis.service';
import { POST_CURSORS, PostCursors } from './posts/post-cursor';
import { CollectionsController, PostsController } from './posts/posts.controller';
import { AdminReportsController } from './reports/admin-reports.controller';
import { ANALYSIS_OPENAPI_SCHEMAS } from './openapi-schemas';
import { SavedAnalysesController } from './reports/saved-analyses.controller';

/** The search model: an embeddings endpoint when ANALYST_EMBEDDINGS_URL is set, local BM25 otherwise. */
export function searchModelFor(env: Record<string, string | undefined>) {
  const url = env.ANALYST_EMBEDDINGS_URL;
  return url
    ? new EmbeddingsSearchModel(url, {
        apiKey: env.ANALYST_EMBEDDINGS_KEY,
        model: env.ANALYST_EMBEDDINGS_MODEL,
      })
    : new Bm25SearchModel();
}

// The schemas the controllers reference, in every document an app with this module serves.
registerOpenApiSchemas(ANALYSIS_OPENAPI_SCHEMAS);

/** Analyses, post analyses and metrics, the post and collection catalog, reports, saved analyses. */
@Module({
  controllers: [
    AnalysesController,
    PostsController,
    CollectionsController,
    SavedAnalysesController,
    AdminReportsController,
  ],
  providers: [
    {
      provide: CommentReadSide,
      inject: [ProjectionService, READ_STORE, EVENT_STORE, ANALYST_CONFIG],
      useFactory: (
        projections: ProjectionService,
        store: ReadStore,
        events: EventStore,
        config: AnalystConfig,
      ) =>
        new CommentReadSide(projections, store, events, {
          cacheMb: config.ANALYST_READ_CACHE_MB,
          compaction: { minDeadRows: config.ANALYSIS_COMPACT_MIN_DEAD_ROWS },
          materializePosts: true,
        }),
    },
    AnalysisService,
    { provide: SEARCH_MODEL, useFactory: () => searchModelFor(process.env) },
    {
      provide: POST_CURSORS,
      inject: [{ token: ANALYST_CONFIG, optional: true }],
      useFactory: (config?: AnalystConfig) => new PostCursors(config?.ANALYST_INTERNAL_SECRET),
    },
  ],
  exports: [CommentReadSide, AnalysisService],
})
export class AnalysisModule implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly projections: ProjectionService,
    private readonly analyses: AnalysisService,
  ) {}

  /** Same module with another search model (tests, or a model chosen by the app). */
  static forRoot(options: { searchModel?: SearchModel } = {}): DynamicModule {
    return {
      module: AnalysisModule,
      providers: options.searchModel ? [{ provide: SEARCH_MODEL, useValue: options.searchModel }] : [],
    };
  }

  onModuleInit(): void {
    this.projections.register(analysesProjector);
    this.projections.register(savedAnalysesProjector);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.analyses.resume();
  }
}
