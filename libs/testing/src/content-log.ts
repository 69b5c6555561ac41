import type {
  CreatorMessage,
  CreatorTopic,
  FetchedComment,
  Platform,
  ProviderPost,
  ScoredComment,
} from '@analyst/contracts';
import type { DomainEvent, EventStore, NewEvent } from '@analyst/eventsourcing';

/**
 * Content events written the way ingest writes them (a post's stream: created, fetched with its
 * comment chunks in one append, scored with its score chunks in one append), for tests and benches
 * that need a log of real shape and size without running fetches: the golden test of the read side
 * and bench/read-side-scale.ts. Comments and scores come from the caller (the simulated provider
 * and the product's scorer, through a `CommentPool`).
 */

/** Ingest's chunk size (COMMENT_CHUNK_SIZE): a fetch of 1,000 comments is four chunk events. */
export const CONTENT_CHUNK_SIZE = 250;

/**
 * The ids the log gives a post's version, as its events carry them: its job, and the reservation
 * funding it (`-r` after the version for a resumption's).
 */
function fundedVersion(postId: string, dataVersion: number, reservationSuffix = '') {
  return {
    postId,
    dataVersion,
    jobId: `cj-${postId}-${dataVersion}`,
    reservationId: `rs-${postId}-${dataVersion}${reservationSuffix}`,
  };
}

/** What every version request in the log asks for: one credit from the credit pool, no full read, no limit. */
const REQUEST_TERMS = { creditSource: 'credit', unitCost: 1, fullRead: false, commentLimit: null } as const;

/** A version request as the log makes them (the fields of PostVersionRequest, in its order). */
function versionRequest(postId: string, dataVersion: number, requestedAt: string) {
  const { jobId, reservationId } = fundedVersion(postId, dataVersion);
  return { dataVersion, jobId, reservationId, ...REQUEST_TERMS, requestedAt };
}

/** Scored comments to draw from: `fetched[i]` scored as `scored[i]` by the product's scorer. */
export interface CommentPool {
  fetched: FetchedComment[];
  scored: ScoredComment[];
}

/** A small deterministic PRNG (LCG): the same seed gives the same log. */
export class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }
  next(): number {
    this.state = (Math.imul(this.state, 1664525) + 1013904223) >>> 0;
    return this.state / 2 ** 32;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/** Draws `count` comments of a post from the pool: new ids, replies pointing inside the post. */
export function commentsFromPool(
  pool: CommentPool,
  postKey: string,
  count: number,
  random: SeededRandom,
  creatorContent: { topics: number; messages: number },
): { fetched: FetchedComment[]; scored: ScoredComment[] } {
  const fetched: FetchedComment[] = [];
  const scored: ScoredComment[] = [];
  for (let i = 0; i < count; i++) {
    const j = random.int(pool.fetched.length);
    const source = pool.fetched[j];
    const id = `${postKey}-c${i}`;
    const parentId = source.parentId !== null && i > 0 ? `${postKey}-c${random.int(i)}` : null;
    fetched.push({ ...source, id, parentId });
    const s = pool.scored[j];
    const topic = creatorContent.topics > 0 && random.next() < 0.2 ? random.int(creatorContent.topics) : null;
    const message =
      creatorContent.messages > 0 && random.next() < 0.1 ? random.int(creatorContent.messages) : null;
    scored.push({ ...s, commentId: id, scores: { ...s.scores }, topicIndex: topic, messageIndex: message });
  }
  return { fetched, scored };
}

export interface PostVersionContent {
  post: ProviderPost;
  fetched: FetchedComment[];
  scored: ScoredComment[];
  topics: CreatorTopic[];
  messages: CreatorMessage[];
  scorer: { name: string; version: string };
}

/** Builds stored events with the metadata every post command carries. */
export class ContentLogWriter {
  private seq = 0;
  constructor(
    private readonly events: EventStore,
    private readonly clockStart = Date.parse('2026-10-01T00:00:00Z'),
  ) {}

  /** A later instant for every event, so `at` fields differ and order like the log. */
  at(): string {
    return new Date(this.clockStart + this.seq * 1000).toISOString();
  }

  async append(
    streamId: string,
    teamId: string,
    events: DomainEvent[],
    expected: number | 'no_stream' | 'any' = 'any',
  ) {
    const stored: NewEvent[] = events.map((e) => ({
      id: `ev-${streamId}-${this.seq++}`,
      type: e.type,
      schemaVersion: 1,
      data: e.data,
      metadata: { correlationId: `corr-${streamId}`, causationId: null, teamId, occurredAt: this.at() },
    }));
    return this.events.append(streamId, stored, expected);
  }

  async teamCreated(teamId: string): Promise<void> {
    await this.append(`team-${teamId}`, teamId, [
      {
        type: 'TeamCreated',
        data: {
          teamId,
          name: `Team ${teamId}`,
          plan: 'enterprise',
          parentTeamId: null,
          monthlyMapAllotment: 0,
        },
      },
    ]);
  }

  async settingsChanged(teamId: string, scoreVersion: 1 | 2 | 3, engagementWeight: number): Promise<void> {
    await this.append(`team-${teamId}`, teamId, [
      { type: 'TeamAnalysisSettingsChanged', data: { teamId, scoreVersion, engagementWeight } },
    ]);
  }

  async collectionCreated(
    teamId: string,
    collectionId: string,
    name: string,
    type: 'campaign' | 'group',
    parentId: string | null,
  ): Promise<void> {
    await this.append(`collection-${collectionId}`, teamId, [
      {
        type: 'CollectionCreated',
        data: { collectionId, teamId, name, type, parentId, createdVia: 'api', at: this.at() },
      },
    ]);
  }

  async postCreated(
    teamId: string,
    postId: string,
    link: string,
    platform: Platform,
    extra: { collectionIds?: string[]; tags?: string[] } = {},
  ): Promise<void> {
    await this.append(`post-${postId}`, teamId, [
      {
        type: 'PostCreated',
        data: {
          postId,
          teamId,
          link,
          normalizedLink: link,
          platform,
          collectionIds: extra.collectionIds ?? [],
          tags: extra.tags ?? [],
          addedVia: 'api',
          addedBy: { id: 'key_gen', name: 'generator' },
          isDemo: false,
          ...versionRequest(postId, 1, this.at()),
        },
      },
    ]);
  }

  async refreshRequested(teamId: string, postId: string, dataVersion: number): Promise<void> {
    await this.append(`post-${postId}`, teamId, [
      {
        type: 'PostRefreshRequested',
        data: { postId, ...versionRequest(postId, dataVersion, this.at()) },
      },
    ]);
  }

  async tagged(teamId: string, postId: string, collectionIds: string[], tags: string[]): Promise<void> {
    await this.append(`post-${postId}`, teamId, [
      {
        type: 'PostTagged',
        data: { postId, addedCollectionIds: collectionIds, addedTags: tags, at: this.at() },
      },
    ]);
  }

  /** `PostFetched` and its comment chunks, in one append (as ingest's RecordFetch). */
  async fetched(
    teamId: string,
    postId: string,
    dataVersion: number,
    content: PostVersionContent,
  ): Promise<void> {
    const chunks = chunked(content.fetched);
    await this.append(`post-${postId}`, teamId, [
      {
        type: 'PostFetched',
        data: {
          postId,
          dataVersion,
          post: content.post,
          totalComments: content.fetched.length,
          chunks: chunks.length,
          at: this.at(),
        },
      },
      ...chunks.map((comments, chunk) => ({
        type: 'CommentsFetched',
        data: { postId, dataVersion, chunk, comments },
      })),
    ]);
  }

  /** The score chunks and `PostScored`, in one append (as ingest's RecordScores). */
  async scored(
    teamId: string,
    postId: string,
    dataVersion: number,
    content: PostVersionContent,
  ): Promise<void> {
    const chunks = chunked(content.scored);
    await this.append(`post-${postId}`, teamId, [
      ...chunks.map((comments, chunk) => ({
        type: 'CommentsScored',
        data: { postId, dataVersion, chunk, scorer: content.scorer, comments },
      })),
      {
        type: 'PostScored',
        data: {
          ...fundedVersion(postId, dataVersion),
          scorer: content.scorer,
          topics: content.topics,
          messages: content.messages,
          totalComments: content.fetched.length,
          chunks: chunks.length,
          at: this.at(),
        },
      },
    ]);
  }

  async fetchFailed(
    teamId: string,
    postId: string,
    dataVersion: number,
    outcome: 'failed' | 'unreachable' | 'holding',
  ): Promise<void> {
    await this.append(`post-${postId}`, teamId, [
      {
        type: 'PostFetchFailed',
        data: {
          ...fundedVersion(postId, dataVersion),
          outcome,
          reason: `generated ${outcome}`,
          at: this.at(),
        },
      },
    ]);
  }

  async holdResumed(teamId: string, postId: string, dataVersion: number): Promise<void> {
    await this.append(`post-${postId}`, teamId, [
      {
        type: 'PostHoldResumed',
        data: { ...fundedVersion(postId, dataVersion, '-r'), at: this.at() },
      },
    ]);
  }

  async cancelled(teamId: string, postId: string, dataVersion: number): Promise<void> {
    await this.append(`post-${postId}`, teamId, [
      {
        type: 'PostCancelled',
        data: {
          ...fundedVersion(postId, dataVersion),
          reason: 'generated cancellation',
          at: this.at(),
        },
      },
    ]);
  }
}

function chunked<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CONTENT_CHUNK_SIZE) out.push(items.slice(i, i + CONTENT_CHUNK_SIZE));
  return out;
}
