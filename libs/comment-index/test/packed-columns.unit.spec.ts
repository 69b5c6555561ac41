import type { ScoredComment } from '@analyst/contracts';
import {
  asciiFnv1a32,
  bytesFnv1a32,
  BytesTable,
  fnv1a32,
  float64s,
  int32s,
  packFetched,
  packScored,
  sameBytes,
  uint32s,
  unpackStrings,
} from '../src';

describe('packed comment columns', () => {
  const fetched = [
    {
      id: 'c1',
      parentId: null,
      authorUsername: '@Ana',
      authorIsCreator: false,
      body: 'Loved it 😍 — ¿qué tal?',
      likes: 3,
      postedAt: '2026-03-01T10:00:00.000Z',
      hidden: false,
    },
    {
      id: 'c2',
      parentId: 'c1',
      authorUsername: 'bo',
      authorIsCreator: true,
      body: 'thanks @Ana',
      likes: 0,
      postedAt: 'not a date',
      hidden: true,
    },
  ];

  it('round-trips strings, numbers and tokens', () => {
    const packed = packFetched(fetched);
    expect(unpackStrings(packed.text, packed.textEnds)).toEqual([
      'c1',
      '@Ana',
      '2026-03-01T10:00:00.000Z',
      'Loved it 😍 — ¿qué tal?',
      'c2',
      'bo',
      'not a date',
      'thanks @Ana',
    ]);
    expect(Array.from(uint32s(packed.postedAt))).toEqual([Date.parse('2026-03-01T10:00:00Z') / 1000, 0]);
    expect(Array.from(packed.flags)).toEqual([8 | 32, 1 | 2 | 4 | 16]);
    expect(packed.terms).toBeUndefined();
    const terms = unpackStrings(packed.termText, packed.termEnds);
    expect(terms).toEqual(['loved', 'it', '\u0000😍', 'qué', 'tal', 'thanks', 'ana']);
    const tokens = Array.from(uint32s(packed.tokens), (t) => terms[t]);
    expect(tokens).toEqual(['loved', 'it', '\u0000😍', 'qué', 'tal', 'thanks', 'ana']);
    expect(Array.from(uint32s(packed.tokenEnds))).toEqual([5, 7]);
  });

  it('reads columns the MongoDB driver hands back as Binary at any byte offset', () => {
    const scored = packScored([
      {
        commentId: 'c1',
        scores: { sentiment: 5.4999, content: null, topic: 2, relevance: 9, consensus: 1 },
        topicIndex: 1,
        messageIndex: null,
        language: 'es',
        scorer: { name: 's', version: '1' },
      },
    ]);
    // The driver's Binary holds a Buffer that is a view into a larger pooled buffer, at an odd offset.
    const pool = Buffer.alloc(scored.scores.byteLength + 3);
    Buffer.from(scored.scores).copy(pool, 3);
    const binary = { buffer: pool.subarray(3) };
    const scores = float64s(binary);
    expect(scores[0]).toBe(5.4999);
    expect(Number.isNaN(scores[1])).toBe(true);
    expect(Array.from(scores.subarray(2))).toEqual([2, 9, 1]);
    expect(Array.from(int32s(scored.refs))).toEqual([1, -1, 0]);
    expect(scored.languages).toEqual(['es']);
  });

  it('packs one emotion byte a comment (an index into EMOTIONS, 255 none), only when a comment has one', () => {
    const scored = (emotion: ScoredComment['emotion']): ScoredComment => ({
      commentId: `c-${String(emotion)}`,
      scores: { sentiment: 5, content: 5, topic: 5, relevance: 5, consensus: 5 },
      topicIndex: null,
      messageIndex: null,
      emotion,
      scorer: { name: 's', version: '2.1.0' },
    });
    const packed = packScored([
      scored('anger'),
      scored(null),
      scored('neutral'),
      scored(undefined),
      scored('joy'),
    ]);
    expect(Array.from(packed.emotions!)).toEqual([0, 255, 6, 255, 3]);
    // Scores written before emotions (or with none read) add no column: their documents stay as they were.
    expect('emotions' in packScored([scored(undefined), scored(null)])).toBe(false);
  });

  it('hashes and compares packed strings without decoding them', () => {
    const bytes = new Uint8Array(Buffer.from('xx-comment-42|ü-id|comment-42', 'utf8'));
    expect(asciiFnv1a32(bytes, 3, 13)).toBe(fnv1a32('comment-42'));
    expect(asciiFnv1a32(bytes, 14, 19)).toBe(-1); // not ASCII
    expect(bytesFnv1a32(bytes, 3, 13)).toBe(fnv1a32('comment-42'));
    expect(sameBytes(bytes, 3, 13, bytes, 20)).toBe(true);
    expect(sameBytes(bytes, 3, 13, bytes, 21)).toBe(false);
  });

  it('finds values by the bytes of their keys, through collisions and growth', () => {
    const keys = Array.from({ length: 3000 }, (_, i) =>
      i % 7 === 0 ? `ñame-${i}` : `@user${i}`.repeat(1 + (i % 3)),
    );
    const text = new Uint8Array(Buffer.from(keys.join(''), 'utf8'));
    const ranges: [number, number][] = [];
    let at = 0;
    for (const k of keys) ranges.push([at, (at += Buffer.byteLength(k))]);
    // A weak hash (a few values) so that most lookups pass colliding entries.
    const weak = (i: number): number => bytesFnv1a32(text, ranges[i][0], ranges[i][1]) & 3;
    const table = new BytesTable<string>();
    keys.forEach((k, i) => {
      if (i % 2) return;
      expect(table.get(text, ranges[i][0], ranges[i][1], weak(i))).toBeUndefined();
      table.set(text, ranges[i][0], ranges[i][1], weak(i), k);
    });
    expect(table.size).toBe(1500);
    keys.forEach((k, i) =>
      expect(table.get(text, ranges[i][0], ranges[i][1], weak(i))).toBe(i % 2 ? undefined : k),
    );
  });
});
