import {
  Inject,
  Injectable,
  Optional,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import {
  COMMENT_SCORER,
  CONTENT_PROVIDER,
  ProviderUnavailableError,
  type CommentScorer,
  type ContentProvider,
  type FetchResult,
  type FetchedComment,
} from '@analyst/contracts';
import { postDecider, postStream, type CommentsFetched, type PostFetched } from '@analyst/domain-content';
import {
  CLOCK,
  CommandRunner,
  EVENT_STORE,
  MESSAGE_BUS,
  eventTopic,
  type BusMessage,
  type Clock,
  type EventStore,
  type MessageBus,
  type RecordedEvent,
  type Subscription,
} from '@analyst/platform';
import { FETCH_GROUP, INGEST_OPTIONS, type IngestOptions } from '../ingest.tokens';
import { countFailures, IngestMetrics } from '../metrics/ingest-metrics';

/**
 * Process manager of a post's data version: `PostCreated` / `PostRefreshRequested` / `PostHoldResumed` → fetch from the
 * provider → `PostFetched` + `CommentsFetched` chunks (status `processing`) → score →
 * `CommentsScored` chunks + `PostScored` (status `complete`), or `PostFetchFailed`. Each step is a
 * decider command that does nothing once the version moved on, so redelivery is harmless.
 */
@Injectable()
export class PostPipelineManager implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('PostPipeline');
  private subscription: Subscription | null = null;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CONTENT_PROVIDER) private readonly provider: ContentProvider,
    @Inject(COMMENT_SCORER) private readonly scorer: CommentScorer,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(INGEST_OPTIONS) private readonly options: IngestOptions,
    private readonly runner: CommandRunner,
    @Optional() private readonly metrics?: IngestMetrics,
  ) {}

  async onModuleInit(): Promise<void> {
    this.subscription = await this.bus.subscribe(
      FETCH_GROUP,
      [eventTopic('post')],
      countFailures(this.metrics, FETCH_GROUP, (message: BusMessage) => this.handle(message)),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  async handle(message: BusMessage): Promise<void> {
    const event = message.payload as RecordedEvent;
    if (
      event.type === 'PostCreated' ||
      event.type === 'PostRefreshRequested' ||
      event.type === 'PostHoldResumed'
    )
      await this.fetch(event as RecordedEvent<string, { postId: string; dataVersion: number }>);
    else if (event.type === 'PostFetched')
      await this.score(event as RecordedEvent<string, PostFetched['data']>);
  }

  private async fetch(event: RecordedEvent<string, { postId: string; dataVersion: number }>): Promise<void> {
    const { postId, dataVersion } = event.data;
    const { state } = await this.runner.load(postStream(postId), postDecider);
    if (state.status !== 'fetching' || state.dataVersion !== dataVersion) return; // already fetched
    const result = await this.fetchWithRetries(
      state.link,
      state.normalizedLink,
      state.current.fullRead,
      state.current.commentLimit,
    );
    await this.runner.run(
      postStream(postId),
      postDecider,
      { type: 'RecordFetch', dataVersion, at: this.clock.now().toISOString(), result },
      { correlationId: event.metadata.correlationId, causationId: event.id, teamId: event.metadata.teamId },
    );
  }

  private async fetchWithRetries(
    link: string,
    normalized: string,
    fullRead: boolean,
    commentLimit: number | null,
  ): Promise<FetchResult> {
    const waits = this.options.fetchBackoffMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.provider.fetchPost(normalized, {
          fullRead,
          commentLimit: fullRead ? undefined : (commentLimit ?? undefined),
        });
      } catch (error) {
        if (attempt >= waits.length) {
          const reason =
            error instanceof ProviderUnavailableError
              ? `provider unavailable: ${error.message}`
              : `fetch failed: ${String(error)}`;
          this.logger.warn(`fetching ${link} failed after ${attempt + 1} attempts: ${reason}`);
          return { status: 'failed', reason };
        }
        await new Promise((r) => setTimeout(r, waits[attempt]));
      }
    }
  }

  private async score(event: RecordedEvent<string, PostFetched['data']>): Promise<void> {
    const { postId, dataVersion, post } = event.data;
    const stream = await this.events.readStream(postStream(postId), event.revision);
    const comments: FetchedComment[] = [];
    for (const e of stream) {
      if (e.type === 'CommentsFetched' && (e.data as CommentsFetched['data']).dataVersion === dataVersion)
        comments.push(...(e.data as CommentsFetched['data']).comments);
    }
    const { state } = await this.runner.load(postStream(postId), postDecider);
    if (state.status !== 'processing' || state.dataVersion !== dataVersion) return; // already scored
    const scoring = this.scorer.scorePost(post, comments);
    await this.runner.run(
      postStream(postId),
      postDecider,
      {
        type: 'RecordScores',
        dataVersion,
        at: this.clock.now().toISOString(),
        scorer: { name: this.scorer.name, version: this.scorer.version },
        topics: scoring.topics,
        messages: scoring.messages,
        comments: scoring.comments,
      },
      { correlationId: event.metadata.correlationId, causationId: event.id, teamId: event.metadata.teamId },
    );
  }
}
