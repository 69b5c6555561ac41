import type { ProviderPost } from '@analyst/contracts';
import { postDecider, postStream } from '@analyst/domain-content';
import {
  CommandRunner,
  FixedClock,
  SequentialIdGenerator,
  SqliteEventStore,
  type EventStore,
  type RecordedEvent,
} from '@analyst/platform';
import { commentsOfVersion, ContentLogWriter, type PostVersionContent } from '@analyst/testing';
import { PostCommands } from '../src/commands/post-commands';

const TEAM = 'tm_1';
const POST = 'po_big';
const AT = '2026-10-02T00:00:00.000Z';
const context = { correlationId: 'corr-test', teamId: TEAM };

function content(dataVersion: number, comments: number): PostVersionContent {
  const { fetched, scored } = commentsOfVersion(POST, dataVersion, comments);
  const post: ProviderPost = {
    link: `https://www.youtube.com/watch?v=${POST}`,
    platform: 'youtube',
    creator: { username: 'c', name: 'C' },
    title: 'a long thread',
    caption: 'c',
    description: null,
    engagement: { views: 10, likes: 2, comments: 1000, shares: 0 },
    postedAt: AT,
    postType: 'video',
    thumbnail: null,
  };
  return { post, fetched, scored, topics: [], messages: [], scorer: { name: 'test', version: '1' } };
}

/**
 * A post stream as ingest writes it today and wrote it before the skipping state source: created,
 * three data versions whose chunks lie inside the stream (1,000, 800 and 600 comments), the third
 * fetched but not scored, so its last event is a comment chunk.
 */
async function writeStreamAsToday(events: EventStore): Promise<void> {
  const log = new ContentLogWriter(events);
  await log.postCreated(TEAM, POST, `https://www.youtube.com/watch?v=${POST}`, 'youtube');
  await log.fetched(TEAM, POST, 1, content(1, 1000));
  await log.scored(TEAM, POST, 1, content(1, 1000));
  await log.refreshRequested(TEAM, POST, 2);
  await log.fetched(TEAM, POST, 2, content(2, 800));
  await log.scored(TEAM, POST, 2, content(2, 800));
  await log.refreshRequested(TEAM, POST, 3);
  await log.fetched(TEAM, POST, 3, content(3, 600));
}

/** Counts what the store hands back, by read method. */
function counted(store: EventStore): { store: EventStore; returned: { whole: number; except: number } } {
  const returned = { whole: 0, except: 0 };
  const wrapped = Object.assign(Object.create(store) as EventStore, {
    readStream: async (streamId: string, fromRevision?: number): Promise<RecordedEvent[]> => {
      const events = await store.readStream(streamId, fromRevision);
      returned.whole += events.length;
      return events;
    },
    readStreamExcept: async (streamId: string, skipTypes: readonly string[], fromRevision?: number) => {
      const read = await store.readStreamExcept(streamId, skipTypes, fromRevision);
      returned.except += read.events.length;
      return read;
    },
  });
  return { store: wrapped, returned };
}

describe('PostCommands on a post stream written before it skipped the comment chunks (upgrade path)', () => {
  let sqlite: SqliteEventStore;
  let runner: CommandRunner;

  beforeEach(async () => {
    sqlite = new SqliteEventStore({ filename: ':memory:' });
    runner = new CommandRunner(sqlite, new FixedClock(AT), new SequentialIdGenerator());
    await writeStreamAsToday(sqlite);
  });
  afterEach(() => sqlite.close());

  it('loads the state of the whole fold, at the revision of the last event (a chunk), reading none of the chunks', async () => {
    const whole = await runner.load(postStream(POST), postDecider);
    expect(whole.events[whole.events.length - 1].type).toBe('CommentsFetched');
    expect(whole.events.filter((e) => e.type.startsWith('Comments'))).toHaveLength(4 + 4 + 4 + 4 + 3);
    const { store, returned } = counted(sqlite);
    const loaded = await new PostCommands(runner, store).state(POST);
    expect(loaded).toEqual({ state: whole.state, revision: whole.revision });
    expect(loaded.state).toMatchObject({ status: 'processing', dataVersion: 3, fetchedComments: 600 });
    expect(returned).toEqual({ whole: 0, except: 8 });
  });

  it('appends a command after the chunk that ends the stream, and the state equals the whole fold after it', async () => {
    const posts = new PostCommands(runner, sqlite);
    const before = await runner.load(postStream(POST), postDecider);
    const tagged = await posts.handle(
      POST,
      { type: 'TagPost', data: { collectionIds: ['col_9'], tags: ['big'], at: AT } },
      context,
    );
    expect(tagged.revision).toBe(before.revision + 1);
    const scores = content(3, 600).scored;
    const scored = await posts.handle(
      POST,
      {
        type: 'RecordScores',
        data: {
          dataVersion: 3,
          at: AT,
          scorer: { name: 'test', version: '1' },
          topics: [],
          messages: [],
          comments: scores,
        },
      },
      context,
    );
    expect(scored.events.map((e) => e.type)).toEqual([
      'CommentsScored',
      'CommentsScored',
      'CommentsScored',
      'PostScored',
    ]);
    const after = await runner.load(postStream(POST), postDecider);
    expect(after.revision).toBe(before.revision + 5);
    expect(after.events.slice(before.events.length).map((e) => [e.type, e.revision])).toEqual([
      ['PostTagged', before.revision + 1],
      ['CommentsScored', before.revision + 2],
      ['CommentsScored', before.revision + 3],
      ['CommentsScored', before.revision + 4],
      ['PostScored', before.revision + 5],
    ]);
    expect(await posts.state(POST)).toEqual({ state: after.state, revision: after.revision });
    expect(after.state).toMatchObject({ status: 'complete', tags: ['big'], collectionIds: ['col_9'] });
    expect(scored.state).toEqual(after.state);
  });
});
