import { Module, type DynamicModule, type OnModuleInit, type Provider } from '@nestjs/common';
import {
  COMMENT_SCORER,
  CONTENT_PROVIDER,
  type CommentScorer,
  type ContentProvider,
} from '@analyst/contracts';
import {
  ANALYST_CONFIG,
  HealthRegistry,
  ProjectionService,
  registerOpenApiSchemas,
  type AnalystConfig,
} from '@analyst/platform';
import { LexiconScorer } from '@analyst/scoring';
import { AddPostsHandler } from './add-posts/add-posts.handler';
import { CollectionsResolver } from './steps/collections-resolver';
import { Dedupe } from './steps/dedupe';
import { FundCheck } from './steps/fund-check';
import { ReserveAndCreate } from './steps/reserve-and-create';
import { ContentJobsController } from './content-jobs/content-jobs.controller';
import { AddAccountController } from './add-account/add-account.controller';
import { AddPostsController } from './add-posts/add-posts.controller';
import { RefreshPostsController } from './refresh-posts/refresh-posts.controller';
import { CollectionCommands } from './commands/collection-commands';
import { ContentJobCommands } from './commands/content-job-commands';
import { LinkClaimCommands } from './commands/link-claim-commands';
import { PostCommands } from './commands/post-commands';
import { RequestClaimCommands } from './commands/request-claim-commands';
import { ContentJobResponse } from './http/content-job-response';
import { INGEST_OPENAPI_SCHEMAS } from './http/openapi-schemas';
import {
  DEFAULT_INGEST_OPTIONS,
  INGEST_OPTIONS,
  ingestOptionsFromEnv,
  type IngestOptions,
} from './ingest.tokens';
import { AddAccountHandler } from './add-account/add-account.handler';
import { DiscoveryManager } from './add-account/discovery.manager';
import { TeamQueue } from './request/team-queue';
import { QueuingJobResumer } from './content-jobs/queuing-job-resumer';
import { HeldPostResumer } from './pipeline/held-post-resumer';
import { RefreshPostsHandler } from './refresh-posts/refresh-posts.handler';
import { JobReader } from './content-jobs/job-reader';
import { CreditSettlementManager } from './pipeline/credit-settlement.manager';
import { JobSettlementManager } from './pipeline/job-settlement.manager';
import { LedgerClient } from './pipeline/ledger-client';
import { PostPipelineManager } from './pipeline/post-pipeline.manager';
import { IngestMetrics } from './metrics/ingest-metrics';
import { contentProviderFromConfig } from './providers/content-provider.factory';
import { ProviderMetrics } from './providers/provider-metrics';
import { ingestProjectors } from './projections';

export interface IngestModuleOptions extends Partial<IngestOptions> {
  /** Where posts come from; the simulated provider by default. */
  provider?: ContentProvider;
  /** How comments are scored; the lexicon scorer by default. */
  scorer?: CommentScorer;
}

/** One controller per use case, in the order the OpenAPI document lists their routes. */
const CONTROLLERS = [RefreshPostsController, AddAccountController, AddPostsController, ContentJobsController];

const SERVICES: Provider[] = [
  PostCommands,
  ContentJobCommands,
  CollectionCommands,
  LinkClaimCommands,
  RequestClaimCommands,
  ContentJobResponse,
  LedgerClient,
  CollectionsResolver,
  Dedupe,
  FundCheck,
  ReserveAndCreate,
  TeamQueue,
  AddPostsHandler,
  RefreshPostsHandler,
  AddAccountHandler,
  DiscoveryManager,
  JobReader,
  PostPipelineManager,
  CreditSettlementManager,
  JobSettlementManager,
  QueuingJobResumer,
  HeldPostResumer,
  IngestMetrics,
  ProviderMetrics,
];

/** The given provider, else the one ANALYST_PROVIDERS picks (the simulator when there is no config: tests). */
function contentProvider(given?: ContentProvider): Provider {
  return {
    provide: CONTENT_PROVIDER,
    inject: [
      { token: ANALYST_CONFIG, optional: true },
      ProviderMetrics,
      { token: HealthRegistry, optional: true },
    ],
    useFactory: (config: AnalystConfig | undefined, metrics: ProviderMetrics, health?: HealthRegistry) =>
      given ?? contentProviderFromConfig(config ?? { ANALYST_MODE: 'standalone' }, metrics, health),
  };
}

// The schemas the controllers reference, in every document an app with this module serves.
registerOpenApiSchemas(INGEST_OPENAPI_SCHEMAS);

/**
 * The ingest service: content routes, content jobs, the fetch and scoring pipeline and the credit
 * and job process managers. `IngestModule` alone binds the provider ANALYST_PROVIDERS picks (the
 * simulator by default in standalone) and the lexicon scorer; `IngestModule.forRoot({...})` swaps either and tunes retries.
 */
@Module({
  controllers: CONTROLLERS,
  providers: [
    ...SERVICES,
    { provide: INGEST_OPTIONS, useFactory: () => ingestOptionsFromEnv() },
    contentProvider(),
    { provide: COMMENT_SCORER, useFactory: () => new LexiconScorer() },
  ],
  exports: [AddPostsHandler, RefreshPostsHandler, JobReader, QueuingJobResumer, HeldPostResumer],
})
export class IngestModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionService) {}

  static forRoot(options: IngestModuleOptions = {}): DynamicModule {
    const { provider, scorer, ...tuning } = options;
    return {
      module: IngestModule,
      controllers: CONTROLLERS,
      providers: [
        ...SERVICES,
        { provide: INGEST_OPTIONS, useValue: { ...DEFAULT_INGEST_OPTIONS, ...tuning } },
        contentProvider(provider),
        { provide: COMMENT_SCORER, useFactory: () => scorer ?? new LexiconScorer() },
      ],
      exports: [AddPostsHandler, RefreshPostsHandler, JobReader, QueuingJobResumer, HeldPostResumer],
    };
  }

  onModuleInit(): void {
    this.projections.register(...ingestProjectors);
  }
}
