import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  COMMENT_SCORER,
  CONTENT_PROVIDER,
  ProviderUnavailableError,
  type CommentScorer,
  type ContentProvider,
  type FetchResult,
  type FetchedComment,
  type CommentsFetched,
  type PostCreated,
  type PostFetched,
  type PostHoldResumed,
  type PostRefreshRequested,
} from '@analyst/contracts';
import { postStream } from '@analyst/domain-content';
import {
  CLOCK,
  EVENT_STORE,
  EventConsumer,
  MESSAGE_BUS,
  causedBy,
  eventsOf,
  type Clock,
  type EventStore,
  type MessageBus,
  type Recorded,
} from '@analyst/platform';
import { FETCH_GROUP, INGEST_OPTIONS, type IngestOptions } from '../ingest.tokens';
import { IngestMetrics } from '../metrics/ingest-metrics';
import { countedSubscription } from './counted-subscription';
import { retryAfterWaits } from './retry-after-waits';
import { PostCommands } from '../commands/post-commands';

/** The events that open a data version, which the pipeline then fetches. */
type VersionOpened = PostCreated | PostRefreshRequested | PostHoldResumed;
type PipelineEvent = VersionOpened | PostFetched;

const isCommentsFetched = eventsOf<CommentsFetched>(['CommentsFetched']);

const PIPELINE_EVENT_TYPES: readonly PipelineEvent['type'][] = [
  'PostCreated',
  'PostRefreshRequested',
  'PostHoldResumed',
  'PostFetched',
];

/**
 * Process manager of a post's data version: `PostCreated` / `PostRefreshRequested` / `PostHoldResumed` → fetch from the
 * provider → `PostFetched` + `CommentsFetched` chunks (status `processing`) → score →
 * `CommentsScored` chunks + `PostScored` (status `complete`), or `PostFetchFailed`. Each step is a
 * decider command that does nothing once the version moved on, so redelivery is harmless.
 */
@Injectable()
export class PostPipelineManager extends EventConsumer<PipelineEvent> {
  constructor(
    @Inject(MESSAGE_BUS) bus: MessageBus,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CONTENT_PROVIDER) private readonly provider: ContentProvider,
    @Inject(COMMENT_SCORER) private readonly scorer: CommentScorer,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(INGEST_OPTIONS) private readonly options: IngestOptions,
    private readonly posts: PostCommands,
    @Optional() metrics?: IngestMetrics,
  ) {
    super(bus, countedSubscription(metrics, 'PostPipeline', FETCH_GROUP, 'post', PIPELINE_EVENT_TYPES));
  }

  protected async on(event: Recorded<PipelineEvent>): Promise<void> {
    if (event.type === 'PostFetched') await this.score(event);
    else await this.fetch(event);
  }

  private async fetch(event: Recorded<VersionOpened>): Promise<void> {
    const { postId, dataVersion } = event.data;
    const { state } = await this.posts.state(postId);
    if (state.status !== 'fetching' || state.dataVersion !== dataVersion) return; // already fetched
    const result = await this.fetchWithRetries(
      state.link,
      state.normalizedLink,
      state.current.fullRead,
      state.current.commentLimit,
    );
    await this.posts.handle(
      postId,
      { type: 'RecordFetch', data: { dataVersion, at: this.clock.now().toISOString(), result } },
      causedBy(event),
    );
  }

  private fetchWithRetries(
    link: string,
    normalized: string,
    fullRead: boolean,
    commentLimit: number | null,
  ): Promise<FetchResult> {
    return retryAfterWaits(
      this.options.fetchBackoffMs,
      () =>
        this.provider.fetchPost(normalized, {
          fullRead,
          commentLimit: fullRead ? undefined : (commentLimit ?? undefined),
        }),
      (error, attempts): FetchResult => {
        const reason =
          error instanceof ProviderUnavailableError
            ? `provider unavailable: ${error.message}`
            : `fetch failed: ${String(error)}`;
        this.logger.warn(`fetching ${link} failed after ${attempts} attempts: ${reason}`);
        return { status: 'failed', reason };
      },
    );
  }

  private async score(event: Recorded<PostFetched>): Promise<void> {
    const { postId, dataVersion, post } = event.data;
    const { state } = await this.posts.state(postId);
    if (state.status !== 'processing' || state.dataVersion !== dataVersion) return; // already scored
    // The version's comments are the chunks appended with its PostFetched: read from there on.
    const stream = await this.events.readStream(postStream(postId), event.revision);
    const comments: FetchedComment[] = [];
    for (const e of stream) {
      if (isCommentsFetched(e) && e.data.dataVersion === dataVersion) comments.push(...e.data.comments);
    }
    const scoring = this.scorer.scorePost(post, comments);
    await this.posts.handle(
      postId,
      {
        type: 'RecordScores',
        data: {
          dataVersion,
          at: this.clock.now().toISOString(),
          scorer: { name: this.scorer.name, version: this.scorer.version },
          topics: scoring.topics,
          messages: scoring.messages,
          comments: scoring.comments,
        },
      },
      causedBy(event),
    );
  }
}
