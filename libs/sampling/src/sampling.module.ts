import { Module, type DynamicModule } from '@nestjs/common';
import {
  CommentReadSide,
  commentReadSideProvider,
  SEARCH_SETUP,
  searchSetupProvider,
  type SearchModel,
  type SearchSetup,
} from '@analyst/comment-index';
import { localEncoderFromEnv } from '@analyst/encoder';
import {
  ANALYST_CONFIG,
  EVENT_STORE,
  registerOpenApiSchemas,
  type AnalystConfig,
  type EventStore,
} from '@analyst/platform';
import { AnalysisCommentsController, PostCommentsController } from './http/comments.controllers';
import { SAMPLING_OPENAPI_SCHEMAS } from './http/openapi-schemas';
import { CursorCodec } from './sample/sample-cursor';
import { SearchMatches } from './sample/search-matches';
import { CURSOR_CODEC, SamplingService, SEARCH_MATCHES } from './sampling.service';

// The schemas the controllers reference, in every document an app with this module serves.
registerOpenApiSchemas(SAMPLING_OPENAPI_SCHEMAS);

/**
 * Comment samples behind analyses and posts. Reads the comment read models through its own cache
 * (it never calls the analysis service), so it runs in the standalone process or as its own service.
 */
@Module({
  controllers: [AnalysisCommentsController, PostCommentsController],
  providers: [
    commentReadSideProvider('sampling'),
    SamplingService,
    {
      provide: CURSOR_CODEC,
      inject: [ANALYST_CONFIG],
      useFactory: (config: AnalystConfig) => new CursorCodec(config.ANALYST_INTERNAL_SECRET),
    },
    searchSetupProvider(localEncoderFromEnv),
    {
      provide: SEARCH_MATCHES,
      inject: [EVENT_STORE, SEARCH_SETUP],
      useFactory: (events: EventStore, search: SearchSetup) =>
        new SearchMatches(events, search.model, search.embeddings),
    },
  ],
  exports: [SamplingService, CommentReadSide],
})
export class SamplingModule {
  /** Same module with the search model the analysis service uses for AI search (see README). */
  static forRoot(options: { searchModel?: SearchModel } = {}): DynamicModule {
    return {
      module: SamplingModule,
      providers: options.searchModel
        ? [
            {
              provide: SEARCH_MATCHES,
              inject: [EVENT_STORE, SEARCH_SETUP],
              useFactory: (events: EventStore, search: SearchSetup) =>
                new SearchMatches(events, options.searchModel!, search.embeddings),
            },
          ]
        : [],
    };
  }
}
