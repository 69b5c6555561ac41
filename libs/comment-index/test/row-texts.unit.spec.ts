import type { FetchedComment, ScoredComment } from '@analyst/contracts';
import { Vocabulary } from '@analyst/domain-analysis';
import { packFetched, packScored, packStrings, RowTexts, TeamIndex, type PostEntry } from '../src';

/**
 * Bodies and times kept as their chunk's UTF-8: decoded as written (non-ASCII too), copied out of
 * the buffer the store answered in, moved by a compaction with the chunks no row uses dropped, and
 * counted in the bytes the cache's budget reads.
 */

const packed = (strings: string[]) => packStrings(strings);

describe('RowTexts', () => {
  it('decodes packed rows as written, from a copy of the answer they came in', () => {
    const { text } = packed(['c1', 'ana', '2026-03-01T10:00:00Z', 'Loved it 😍 — ¿qué tal?']);
    // As the driver hands a Binary back: a Buffer that is a view into its larger answer.
    const answer = Buffer.concat([Buffer.from('xyz'), Buffer.from(text)]);
    const view = answer.subarray(3);
    const texts = new RowTexts();
    const chunk = texts.addChunk(view);
    texts.packed(0, chunk, 5, 25, text.length);
    answer.fill(0);
    expect(texts.postedAt(0)).toBe('2026-03-01T10:00:00Z');
    expect(texts.body(0)).toBe('Loved it 😍 — ¿qué tal?');
    expect(texts.body(1)).toBeUndefined();
  });

  it('keeps folded rows as strings and counts each row once when written again', () => {
    const texts = new RowTexts();
    const empty = texts.bytes;
    texts.strings(0, '2026-03-01', 'hello');
    texts.strings(1, 'yesterday', 'hi');
    expect([texts.postedAt(0), texts.body(0), texts.postedAt(1), texts.body(1)]).toEqual([
      '2026-03-01',
      'hello',
      'yesterday',
      'hi',
    ]);
    expect(texts.bytes - empty).toBe(2 * 48 + 10 + 5 + 9 + 2);
    const { text } = packed(['id', 'au', 'then', 'packed body']);
    texts.packed(1, texts.addChunk(text), 4, 8, text.length);
    expect(texts.body(1)).toBe('packed body');
    expect(texts.postedAt(1)).toBe('then');
    expect(texts.bytes - empty).toBe(48 + 10 + 5 + text.length);
  });

  it('moves rows on a compaction and drops the chunks no row uses', () => {
    const texts = new RowTexts();
    const a = packed(['a1', 'u', 'ta', 'body a']).text;
    const b = packed(['b1', 'u', 'tb', 'body b']).text;
    texts.packed(0, texts.addChunk(a), 3, 5, a.length);
    texts.packed(1, texts.addChunk(b), 3, 5, b.length);
    texts.strings(2, 'tc', 'body c');
    const before = texts.bytes;
    // Row 0 dies; rows 1 and 2 become 0 and 1.
    texts.remap(Int32Array.from([-1, 0, 1]), 2);
    expect([texts.body(0), texts.postedAt(0), texts.body(1), texts.postedAt(1)]).toEqual([
      'body b',
      'tb',
      'body c',
      'tc',
    ]);
    expect(texts.body(2)).toBeUndefined();
    expect(before - texts.bytes).toBe(a.length);
  });
});

describe('TeamIndex: loaded texts across a compaction', () => {
  const comment = (id: string, body: string): FetchedComment => ({
    id,
    parentId: null,
    authorUsername: `@${id}`,
    authorIsCreator: false,
    body,
    likes: 1,
    postedAt: `2026-10-0${id.length}T12:00:00Z`,
    hidden: false,
  });
  const score = (commentId: string): ScoredComment => ({
    commentId,
    scores: { sentiment: 0.5, content: null, topic: null, relevance: null, consensus: null },
    topicIndex: null,
    messageIndex: null,
    scorer: { name: 'test', version: '1' },
  });

  it("keeps the live version's bodies and times, and lets the replaced version's chunks go", () => {
    const team = new TeamIndex('tm', new Vocabulary(), new Map(), { minDeadRows: 1 });
    const post = { id: 'p1', teamId: 'tm', index: 0, version: null, scored: null, pending: null };
    team.posts.push(post as unknown as PostEntry);
    const entry = team.posts[0];
    const info = (dataVersion: number) => ({
      dataVersion,
      topics: [],
      messages: [],
      scoredAt: '2026-10-02T00:00:00Z',
      settings: team.settings,
      source: { fetch: dataVersion, chunks: 1 },
    });
    const first = [comment('a', 'first ä'), comment('bb', 'first b')];
    team.appendVersion(entry, info(1), [packFetched(first)], [packScored(first.map((c) => score(c.id)))]);
    const afterFirst = team.details.arrayBytes;
    const second = [comment('ccc', 'second 😍'), comment('a', 'second a')];
    team.appendVersion(entry, info(2), [packFetched(second)], [packScored(second.map((c) => score(c.id)))]);
    // The first version's 2 rows are dead, at least half of 4 and minDeadRows: compacted.
    expect(team.compactions).toBe(1);
    const rows = Array.from(entry.scored!.rows);
    expect(rows).toEqual([0, 1]);
    expect(rows.map((r) => team.details.body(r))).toEqual(['second 😍', 'second a']);
    expect(rows.map((r) => team.details.postedAtOf(r))).toEqual(second.map((c) => c.postedAt));
    expect(rows.map((r) => team.commentIds[r])).toEqual(['ccc', 'a']);
    // One chunk held, the second version's: the first one's text is no longer counted.
    const firstText = packFetched(first).text.byteLength;
    const secondText = packFetched(second).text.byteLength;
    expect(team.details.arrayBytes - afterFirst).toBe(secondText - firstText);
  });
});
