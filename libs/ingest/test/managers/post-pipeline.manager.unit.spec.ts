import type {
  CommentScorer,
  ContentProvider,
  FetchOptions,
  FetchResult,
  FetchedComment,
  PostScoring,
  ProviderPost,
  CommentsFetched,
  PostCreated,
  PostFetched,
  PostScored,
} from '@analyst/contracts';
import { postDecider, postStream } from '@analyst/domain-content';
import { CommandHandler, FixedClock, type EventStore, type RecordedEvent } from '@analyst/platform';
import { delivered, recorded } from '@analyst/testing';
import { DEFAULT_INGEST_OPTIONS } from '../../src/ingest.tokens';
import { PostPipelineManager } from '../../src/pipeline/post-pipeline.manager';
import { NO_BUS, RecordingRunner } from './recording-ports';

const NOW = '2026-03-10T12:05:00.000Z';
const at = { id: 'ev_step', streamId: 'post-p1', revision: 3, correlationId: 'corr-5', teamId: 'team-1' };
const post = { title: 'launch video' } as unknown as ProviderPost;
const comment = (id: string) => ({ id, body: `comment ${id}` }) as unknown as FetchedComment;

/** The pipeline reads only the post id and data version of the event that opened a version. */
const created = { type: 'PostCreated', data: { postId: 'p1', dataVersion: 2 } } as unknown as PostCreated;
const fetched: PostFetched = {
  type: 'PostFetched',
  data: { postId: 'p1', dataVersion: 2, post, totalComments: 2, chunks: 1, at: NOW },
};
const fetching = {
  status: 'fetching',
  dataVersion: 2,
  link: 'https://youtu.be/abc',
  normalizedLink: 'youtube:abc',
  current: { fullRead: false, commentLimit: 50 },
};

class RecordingProvider {
  readonly asked: { link: string; options: FetchOptions }[] = [];
  answer: () => Promise<FetchResult> = async () => ({ status: 'ok', post, comments: [comment('c1')] });
  fetchPost(link: string, options: FetchOptions): Promise<FetchResult> {
    this.asked.push({ link, options });
    return this.answer();
  }
}

class RecordingScorer {
  readonly name = 'rules';
  readonly version = '3';
  readonly scored: FetchedComment[][] = [];
  scorePost(_post: ProviderPost, comments: FetchedComment[]): PostScoring {
    this.scored.push(comments);
    return { topics: [], messages: [], comments: [] };
  }
}

function stream(...events: { type: string; data: unknown }[]): EventStore {
  const stored = events.map((e, i) => recorded(e, { id: `ev_${i}`, revision: i }) as RecordedEvent);
  return {
    readStream: async (_id: string, from = 0) => stored.filter((e) => e.revision >= from),
  } as EventStore;
}

function comments(dataVersion: number, ...ids: string[]): CommentsFetched {
  return {
    type: 'CommentsFetched',
    data: { postId: 'p1', dataVersion, chunk: 0, comments: ids.map(comment) },
  };
}

describe('PostPipelineManager: given a post event, expect the next pipeline command', () => {
  let runner: RecordingRunner;
  let provider: RecordingProvider;
  let scorer: RecordingScorer;
  const manager = (events: EventStore = stream()) =>
    new PostPipelineManager(
      NO_BUS,
      events,
      provider as unknown as ContentProvider,
      scorer as CommentScorer,
      new FixedClock(NOW),
      { ...DEFAULT_INGEST_OPTIONS, fetchBackoffMs: [] },
      // The post commands with no state source of their own: `load` answers the states set on the runner.
      new CommandHandler(runner.asRunner(), { decider: postDecider, streamOf: postStream }),
    );
  beforeEach(() => {
    runner = new RecordingRunner();
    provider = new RecordingProvider();
    scorer = new RecordingScorer();
  });

  it('PostCreated on a fetching version → fetch from the provider, then RecordFetch with its result', async () => {
    runner.states.set('post-p1', fetching);
    await manager().handle(delivered(recorded(created, at)));
    expect(provider.asked).toEqual([{ link: 'youtube:abc', options: { fullRead: false, commentLimit: 50 } }]);
    expect(runner.runs).toEqual([
      {
        streamId: 'post-p1',
        command: {
          type: 'RecordFetch',
          data: { dataVersion: 2, at: NOW, result: { status: 'ok', post, comments: [comment('c1')] } },
        },
        context: { correlationId: 'corr-5', causationId: 'ev_step', teamId: 'team-1' },
      },
    ]);
  });

  it.each(['PostRefreshRequested', 'PostHoldResumed'])('%s opens a version the same way', async (type) => {
    runner.states.set('post-p1', fetching);
    await manager().handle(delivered(recorded({ type, data: { postId: 'p1', dataVersion: 2 } }, at)));
    expect(runner.runs.map((r) => (r.command as { type: string }).type)).toEqual(['RecordFetch']);
  });

  it('a provider that keeps failing → RecordFetch of a failed result', async () => {
    runner.states.set('post-p1', fetching);
    provider.answer = async () => {
      throw new Error('socket hang up');
    };
    await manager().handle(delivered(recorded(created, at)));
    expect(runner.runs.map((r) => r.command)).toEqual([
      {
        type: 'RecordFetch',
        data: {
          dataVersion: 2,
          at: NOW,
          result: { status: 'failed', reason: 'fetch failed: Error: socket hang up' },
        },
      },
    ]);
  });

  it('a redelivered PostCreated once the version moved on (processing) → no fetch, no command', async () => {
    runner.states.set('post-p1', { ...fetching, status: 'processing' });
    await manager().handle(delivered(recorded(created, at)));
    expect(provider.asked).toEqual([]);
    expect(runner.runs).toEqual([]);
  });

  it("PostFetched on a processing version → score that version's comments only, then RecordScores", async () => {
    runner.states.set('post-p1', { ...fetching, status: 'processing' });
    const events = stream(comments(1, 'old'), fetched, comments(2, 'c1', 'c2'), comments(3, 'next'));
    await manager(events).handle(delivered(recorded(fetched, { ...at, revision: 1 })));
    expect(scorer.scored).toEqual([[comment('c1'), comment('c2')]]);
    expect(runner.runs).toEqual([
      {
        streamId: 'post-p1',
        command: {
          type: 'RecordScores',
          data: {
            dataVersion: 2,
            at: NOW,
            scorer: { name: 'rules', version: '3' },
            topics: [],
            messages: [],
            comments: [],
          },
        },
        context: { correlationId: 'corr-5', causationId: 'ev_step', teamId: 'team-1' },
      },
    ]);
  });

  it('a redelivered PostFetched once the version is scored (complete) → no command', async () => {
    runner.states.set('post-p1', { ...fetching, status: 'complete' });
    await manager(stream(fetched, comments(2, 'c1'))).handle(delivered(recorded(fetched, at)));
    expect(runner.runs).toEqual([]);
  });

  it('an event that is not a pipeline step (PostScored) → nothing', async () => {
    runner.states.set('post-p1', fetching);
    const done = { type: 'PostScored', data: { postId: 'p1', dataVersion: 2 } } as unknown as PostScored;
    await manager().handle(delivered(recorded(done, at)));
    expect(provider.asked).toEqual([]);
    expect(runner.runs).toEqual([]);
  });
});
