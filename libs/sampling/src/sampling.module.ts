import { Module, type DynamicModule } from '@nestjs/common';
import type { SearchModel } from '@analyst/comment-index';
import {
  ANALYST_CONFIG,
  EVENT_STORE,
  registerOpenApiSchemas,
  type AnalystConfig,
  type EventStore,
} from '@analyst/platform';
import { AnalysisCommentsController, PostCommentsController } from './http/comments.controllers';
import { SAMPLING_OPENAPI_SCHEMAS } from './http/openapi-schemas';
import { SamplingIndexService } from './index/sampling-index.service';
import { CursorCodec } from './sample/sample-cursor';
import { SearchMatches } from './sample/search-matches';
import { CURSOR_CODEC, SamplingService, SEARCH_MATCHES } from './sampling.service';

// The schemas the controllers reference, in every document an app with this module serves.
registerOpenApiSchemas(SAMPLING_OPENAPI_SCHEMAS);

/**
 * Comment samples behind analyses and posts. Builds its own index from the event log (it never
 * calls the analysis service), so it runs in the standalone process or as its own service.
 */
@Module({
  controllers: [AnalysisCommentsController, PostCommentsController],
  providers: [
    SamplingIndexService,
    SamplingService,
    {
      provide: CURSOR_CODEC,
      inject: [ANALYST_CONFIG],
      useFactory: (config: AnalystConfig) => new CursorCodec(config.ANALYST_INTERNAL_SECRET),
    },
    {
      provide: SEARCH_MATCHES,
      inject: [EVENT_STORE],
      useFactory: (events: EventStore) => new SearchMatches(events),
    },
  ],
  exports: [SamplingService, SamplingIndexService],
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
              inject: [EVENT_STORE],
              useFactory: (events: EventStore) => new SearchMatches(events, options.searchModel),
            },
          ]
        : [],
    };
  }
}
