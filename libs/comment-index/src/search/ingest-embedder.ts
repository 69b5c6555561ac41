import type { CommentsFetched } from '@analyst/contracts';
import { eventsOf, type RecordedEvent } from '@analyst/platform';
import type { CommentEmbeddings, CommentText } from './comment-embeddings';

const isCommentsFetched = eventsOf<CommentsFetched>(['CommentsFetched']);

/** ANALYST_EMBED_AT_INGEST: `on` (default) embeds each chunk of comments as the analysis service projects it. */
export function embedsAtIngest(env: Record<string, string | undefined>): boolean {
  const value = (env.ANALYST_EMBED_AT_INGEST ?? 'on').trim().toLowerCase();
  if (value !== 'on' && value !== 'off')
    throw new Error(
      `ANALYST_EMBED_AT_INGEST must be on or off (got ${JSON.stringify(env.ANALYST_EMBED_AT_INGEST)})`,
    );
  return value === 'on';
}

/** Comments waiting at most: past it a chunk is left to the first search that reads it. */
export const INGEST_EMBED_QUEUE = 20_000;

/** What became of a chunk handed to the embedder (for a metric). */
export type IngestEmbedOutcome = 'embedded' | 'skipped' | 'deferred';

export interface IngestEmbedderCounts {
  embedded: number;
  /** Chunks another replica had claimed or stored already. */
  skipped: number;
  /** Chunks left to a search because the queue was full or embedding failed. */
  deferred: number;
  queued: number;
}

/**
 * Embeds each chunk of comments as its `CommentsFetched` is projected, one chunk at a time behind
 * the projection (a post is complete before its vectors are in: a search embeds what is missing).
 * Bounded: a burst larger than the queue (a replay, a huge import) leaves the rest to the first
 * search that reads those comments, which stores them the same way.
 */
export class IngestEmbedder {
  private readonly queue: { teamId: string; postId: string; revision: number; comments: CommentText[] }[] =
    [];
  private waitingComments = 0;
  private running: Promise<void> | null = null;
  readonly counts: IngestEmbedderCounts = { embedded: 0, skipped: 0, deferred: 0, queued: 0 };

  constructor(
    private readonly embeddings: CommentEmbeddings,
    private readonly onError: (error: unknown) => void,
    private readonly capacity = INGEST_EMBED_QUEUE,
    private readonly onOutcome: (outcome: IngestEmbedOutcome) => void = () => undefined,
  ) {}

  /** Comments waiting to be embedded now. */
  get queuedComments(): number {
    return this.waitingComments;
  }

  /** For `ProjectionService.onApplied`: takes `CommentsFetched` events, ignores the rest. */
  apply(event: RecordedEvent): void {
    if (!isCommentsFetched(event)) return;
    const data = event.data;
    const comments = data.comments
      .filter((c) => !c.hidden && c.body.trim() !== '')
      .map((c) => ({ id: c.id, body: c.body }));
    if (this.waitingComments + comments.length > this.capacity) {
      this.count('deferred');
      return;
    }
    const teamId = event.metadata?.teamId ?? '';
    this.queue.push({ teamId, postId: data.postId, revision: event.revision, comments });
    this.waitingComments += comments.length;
    this.counts.queued = this.queue.length;
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Resolves once every queued chunk is embedded (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private count(outcome: IngestEmbedOutcome): void {
    this.counts[outcome]++;
    this.onOutcome(outcome);
  }

  private async drain(): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      this.waitingComments -= next.comments.length;
      this.counts.queued = this.queue.length;
      try {
        const mine = await this.embeddings.embedAtIngest(
          next.teamId,
          next.postId,
          next.revision,
          next.comments,
        );
        this.count(mine ? 'embedded' : 'skipped');
      } catch (error) {
        this.count('deferred');
        this.onError(error);
      }
    }
  }
}
