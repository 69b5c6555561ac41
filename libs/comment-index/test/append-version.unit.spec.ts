import { BSON } from 'bson';
import { EMOTIONS, type FetchedComment, type ScoredComment } from '@analyst/contracts';
import { Vocabulary } from '@analyst/domain-analysis';
import {
  fnv1a32,
  packFetched,
  packScored,
  TeamIndex,
  unpackStrings,
  type PackedFetched,
  type PackedScored,
  type PostEntry,
} from '../src';
import { rowsOf } from './rows-of';

/**
 * A version appended from its packed chunks (what a replica loads from the read store) holds the
 * same rows as the same comments folded from their events (addComments, addScores): ids seen
 * earlier in the version skipped, scores found by id whatever their order, authors interned by
 * name whatever the case or leading @, non-ASCII ids and names, two ids of one FNV-1a hash; and so
 * does a version whose chunks come back through BSON (columns at unaligned offsets).
 */

const SCORER = { name: 'test', version: '1' };

/** Two different ids with the same `fnv1a32` (found by counting up: the birthday bound). */
function collidingIds(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const id = `k${i}`;
    const hash = fnv1a32(id);
    const other = seen.get(hash);
    if (other !== undefined) return [other, id];
    seen.set(hash, id);
  }
}

const comment = (id: string, over: Partial<FetchedComment> = {}): FetchedComment => ({
  id,
  parentId: null,
  authorUsername: `user_${id.length % 5}`,
  authorIsCreator: false,
  body: `comment ${id} says hello`,
  likes: id.length,
  postedAt: '2026-10-01T12:00:00.000Z',
  hidden: false,
  ...over,
});

const score = (commentId: string, i: number, over: Partial<ScoredComment> = {}): ScoredComment => ({
  commentId,
  scores: {
    sentiment: (i % 7) / 7,
    content: i % 3 === 0 ? null : 0.5,
    topic: 0.25,
    relevance: -0.5,
    consensus: 1,
  },
  topicIndex: i % 4 === 0 ? 1 : null,
  messageIndex: i % 5 === 0 ? 0 : null,
  language: i % 3 === 0 ? 'en' : i % 3 === 1 ? null : undefined,
  // Every emotion, none (another language), and absent (scored before emotions).
  emotion: i % 4 === 3 ? undefined : i % 4 === 2 ? null : EMOTIONS[i % EMOTIONS.length],
  scorer: SCORER,
  ...over,
});

function post(team: TeamIndex, id: string): PostEntry {
  const entry = {
    id,
    teamId: team.teamId,
    index: team.posts.length,
    version: null,
    scored: null,
    pending: null,
  } as unknown as PostEntry;
  team.posts.push(entry);
  team.postsById.set(id, entry);
  return entry;
}

const rowStringBytes = (team: TeamIndex): number =>
  (team as unknown as { rowStringBytes: number }).rowStringBytes;

/** The version as the log fold builds it and as a replica loads it, compared. */
function compare(versions: { fetched: FetchedComment[][]; scored: ScoredComment[][] }[]): void {
  const folded = new TeamIndex('tm', new Vocabulary(), new Map());
  const loaded = new TeamIndex('tm', new Vocabulary(), new Map());
  const fromBson = new TeamIndex('tm', new Vocabulary(), new Map());
  const legacy = new TeamIndex('tm', new Vocabulary(), new Map());
  versions.forEach((v, n) => {
    const a = post(folded, `p${n}`);
    const b = post(loaded, `p${n}`);
    const c = post(fromBson, `p${n}`);
    const d = post(legacy, `p${n}`);
    for (const chunk of v.fetched) folded.addComments(a, 1, chunk);
    for (const chunk of v.scored) folded.addScores(a, 1, chunk);
    folded.completeVersion(a, 1, [], [], '2026-10-02T00:00:00.000Z');
    const info = { ...a.version!, source: { fetch: 1, chunks: v.fetched.length } };
    const fetched: PackedFetched[] = v.fetched.map((chunk) => packFetched(chunk));
    const scored: PackedScored[] = v.scored.map((chunk) => packScored(chunk));
    loaded.appendVersion(b, info, fetched, scored);
    expect(rowsOf(loaded, b)).toEqual(rowsOf(folded, a));
    expect(b.scored!.rows).toEqual(a.scored!.rows);
    // As MongoDB hands the documents back: every column a Binary at some offset of the answer.
    const viaBson = <T extends object>(doc: T): T =>
      BSON.deserialize(
        Buffer.concat([Buffer.alloc(1 + (n % 3)), BSON.serialize(doc)]).subarray(1 + (n % 3)),
      ) as T;
    fromBson.appendVersion(c, info, fetched.map(viaBson), scored.map(viaBson));
    expect(rowsOf(fromBson, c)).toEqual(rowsOf(folded, a));
    // Chunks stored before their terms were packed: the terms as an array of strings.
    const unpacked = fetched.map(({ termText, termEnds, ...rest }) => ({
      ...rest,
      terms: unpackStrings(termText, termEnds),
    }));
    legacy.appendVersion(d, info, unpacked.map(viaBson), scored.map(viaBson));
    expect(rowsOf(legacy, d)).toEqual(rowsOf(folded, a));
  });
  expect([...loaded.authors]).toEqual([...folded.authors]);
  expect(loaded.commentIds).toEqual(folded.commentIds);
  expect(rowStringBytes(loaded)).toBe(rowStringBytes(folded));
  expect(rowStringBytes(fromBson)).toBe(rowStringBytes(folded));
}

describe('appendVersion: a version loaded from packed chunks equals the fold of its events', () => {
  it('skips ids seen earlier in the version, within a chunk and in a redelivered chunk', () => {
    const first = ['a1', 'a2', 'a3', 'a2', 'a4'].map((id, i) => comment(id, { body: `dup ${i} word${i}` }));
    const second = ['a5', 'a1', 'a6'].map((id) => comment(id));
    compare([
      {
        fetched: [first, second, first],
        scored: [['a1', 'a2', 'a3', 'a4', 'a5', 'a6'].map((id, i) => score(id, i))],
      },
    ]);
  });

  it('finds scores by id out of order, twice for one id, for ids it never fetched, and leaves the unscored', () => {
    const ids = Array.from({ length: 30 }, (_, i) => `c${i}`);
    const fetched = [ids.slice(0, 12), ids.slice(12)].map((chunk) => chunk.map((id) => comment(id)));
    const reversed = [...ids].reverse().slice(3);
    compare([
      {
        fetched,
        scored: [
          reversed.slice(0, 10).map((id, i) => score(id, i)),
          ['nope', 'c5', 'c5', ...reversed.slice(10)].map((id, i) => score(id, i + 10)),
        ],
      },
    ]);
    // In order, then a chunk of scores delivered twice.
    const inOrder = ids.map((id, i) => score(id, i));
    compare([{ fetched, scored: [inOrder.slice(0, 15), inOrder.slice(0, 15), inOrder.slice(15)] }]);
  });

  it('keeps two ids of one hash apart, and finds each one by id', () => {
    const [x, y] = collidingIds();
    expect(fnv1a32(x)).toBe(fnv1a32(y));
    const fetched = [[comment(x), comment('other'), comment(y), comment(x), comment(y)]];
    compare([{ fetched, scored: [[score(y, 1), score(x, 2), score('other', 3)]] }]);
  });

  it('interns authors by name whatever the case or a leading @, across versions; non-ASCII ids, names and text', () => {
    const authors = ['@Alice', 'alice', 'ALICE', '@@bob', 'Bob', 'Ünïcödé', '@ünïcödé', '', '@', 'Zoë 🦊'];
    const v1 = authors.map((authorUsername, i) =>
      comment(i % 3 === 0 ? `id-ü-${i}` : `id-${i}`, {
        authorUsername,
        body: i % 2 ? 'Привет мир 😀 @friend?' : '',
        postedAt: i % 4 === 0 ? 'yesterday' : `2026-09-0${1 + (i % 9)}T00:00:00Z`,
        parentId: i % 2 ? 'id-0' : null,
        authorIsCreator: i === 4,
        hidden: i === 5,
      }),
    );
    const v2 = authors.map((authorUsername, i) =>
      comment(`🦊-${i}`, { authorUsername: authorUsername.toUpperCase() }),
    );
    compare([
      { fetched: [v1], scored: [v1.map((c, i) => score(c.id, i))] },
      { fetched: [v2.slice(0, 4), v2.slice(4)], scored: [v2.map((c, i) => score(c.id, i)).reverse()] },
      { fetched: [], scored: [] },
    ]);
  });

  it("carries each comment's emotion, and reads scores stored before emotions as none", () => {
    const fetched = [['e0', 'e1', 'e2', 'e3'].map((id) => comment(id))];
    const emotions = ['fear', null, 'joy', undefined] as const;
    const scored = [fetched[0].map((c, i) => score(c.id, i, { emotion: emotions[i] }))];
    compare([{ fetched, scored }]);

    const team = new TeamIndex('tm', new Vocabulary(), new Map());
    const entry = post(team, 'p');
    const info = {
      dataVersion: 1,
      topics: [],
      messages: [],
      scoredAt: '2026-10-02T00:00:00.000Z',
      settings: { scoreVersion: 3 as const, engagementWeight: 1 },
      source: { fetch: 1, chunks: 1 },
    };
    team.appendVersion(entry, info, fetched.map(packFetched), scored.map(packScored));
    expect(rowsOf(team, entry).map((r) => r.emotion)).toEqual(['fear', null, 'joy', null]);

    // A document of the comment_scores read model written before emotions: no emotions column.
    const before = packScored(fetched[0].map((c, i) => score(c.id, i, { emotion: undefined })));
    expect('emotions' in before).toBe(false);
    const old = post(team, 'old');
    team.appendVersion(old, info, fetched.map(packFetched), [before]);
    expect(rowsOf(team, old).map((r) => r.emotion)).toEqual([null, null, null, null]);
  });
});
