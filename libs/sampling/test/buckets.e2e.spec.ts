import { BUCKET_KEYS, DIMENSIONS, type BucketKey } from '@analyst/contracts';
import { commentBuckets, MIX_FIELD, roundTo, type Mix } from '@analyst/domain-analysis';
import { EDGE_SCORES, prng, samplingTest, type SeedComment, type SeedPost } from './sampling-fixture';

/** Comments with every dimension spread over every cutoff, some unscored, hidden, replies, spam. */
function seedPosts(): SeedPost[] {
  const rnd = prng(8);
  const pick = () => (rnd() < 0.08 ? null : EDGE_SCORES[Math.floor(rnd() * EDGE_SCORES.length)]);
  return ['p1', 'p2', 'p3'].map((id, p) => ({
    id,
    postedAt: `2026-03-0${p + 1}T10:00:00.000Z`,
    topics: [
      { title: `Topic A of ${id}`, description: null },
      { title: `Topic B of ${id}`, description: null },
    ],
    messages: [{ topic: `Topic A of ${id}`, stance: 'for' }],
    comments: Array.from({ length: 90 }, (_, i): SeedComment => {
      const topicIndex = rnd() < 0.4 ? (rnd() < 0.5 ? 0 : 1) : null;
      return {
        scores: { sentiment: pick(), content: pick(), topic: pick(), relevance: pick(), consensus: pick() },
        likes: Math.floor(rnd() ** 3 * 300),
        reply: i > 0 && rnd() < 0.2,
        hidden: rnd() < 0.06,
        body: rnd() < 0.06 ? `spam offer ${i}` : `comment ${i} on ${id}`,
        topicIndex,
        messageIndex: topicIndex === 0 && rnd() < 0.5 ? 0 : null,
      };
    }),
  }));
}

/** Which comments the test expects in each bucket: the seed's scores through the shared rule. */
function expectedMembers(
  posts: SeedPost[],
  version: 1 | 2 | 3,
  keep: (c: SeedComment) => boolean,
): Map<string, Set<string>> {
  const members = new Map<string, Set<string>>();
  for (const d of DIMENSIONS) for (const k of BUCKET_KEYS) members.set(`${d}:${k}`, new Set());
  for (const p of posts) {
    p.comments.forEach((c, i) => {
      if (c.hidden || !keep(c)) return;
      const buckets = commentBuckets(
        { sentiment: null, content: null, topic: null, relevance: null, consensus: null, ...c.scores },
        version,
      );
      for (const d of DIMENSIONS) if (buckets[d]) members.get(`${d}:${buckets[d]}`)!.add(`${p.id}-c${i}`);
    });
  }
  return members;
}

describe('bucket-filtered samples are exactly the mix bars (issue 8, done criterion)', () => {
  let f: Awaited<ReturnType<typeof samplingTest>>;
  let key: string;
  let teamId: string;
  const posts = seedPosts();

  beforeAll(async () => {
    f = await samplingTest();
    ({ teamId, key } = await f.team());
    await f.posts(teamId, posts);
  });
  afterAll(() => f.close());

  it('takes every bucket of every dimension of an analysis mix: members only, no duplicates, counts equal to the bars', async () => {
    const created = await f.post('/analyses', key, {
      selection: { postIds: ['p1', 'p2', 'p3'] },
      filters: { excludeKeywords: ['spam'] },
    });
    expect(created.status).toBe(201);
    const analysis = created.body.data;
    const matched = analysis.scope.matchedComments as number;
    const expected = expectedMembers(posts, 3, (c) => !c.body!.startsWith('spam'));
    expect(matched).toBe(
      posts.flatMap((p) => p.comments).filter((c) => !c.hidden && !c.body!.startsWith('spam')).length,
    );

    for (const dimension of DIMENSIONS) {
      const mix = analysis.commentAnalysis.mix[dimension] as Mix;
      const counts = {} as Record<BucketKey, number>;
      for (const bucket of BUCKET_KEYS) {
        const { rows, pages } = await f.pages(
          `/analyses/${analysis.id}/comments?${dimension}=${bucket}&limit=13`,
          key,
        );
        const ids = rows.map((r) => r.commentId);
        expect(new Set(ids).size).toBe(ids.length);
        expect(rows.every((r) => r.buckets[dimension] === bucket)).toBe(true);
        expect(new Set(ids)).toEqual(expected.get(`${dimension}:${bucket}`));
        expect(pages.every((p) => p.meta.total === ids.length)).toBe(true);
        expect(pages[0].meta.filters).toEqual({ [dimension]: [bucket] });
        counts[bucket] = ids.length;
      }
      // The mix is in percent of the comments scored on the dimension: each bar is count / scored.
      const scored = BUCKET_KEYS.reduce((n, k) => n + counts[k], 0);
      expect(scored).toBeGreaterThan(0);
      expect(scored).toBeLessThanOrEqual(matched);
      for (const bucket of BUCKET_KEYS)
        expect([dimension, bucket, roundTo((counts[bucket] / scored) * 100, 1)]).toEqual([
          dimension,
          bucket,
          mix[MIX_FIELD[bucket]],
        ]);
    }
    // v3 sentiment and relevance/consensus have no neutral bar, and nothing is sampled there.
    expect(analysis.commentAnalysis.mix.sentiment.neutralPercent).toBe(0);
    expect(expected.get('sentiment:neutral')!.size).toBe(0);
    expect(expected.get('relevance:neutral')!.size).toBe(0);
    expect(expected.get('content:neutral')!.size).toBeGreaterThan(0);
  });

  it('the post route pages every bucket under the version its post analysis was scored with (v2: a neutral sentiment bar)', async () => {
    await f.scoreVersion(teamId, 2);
    try {
      // Scored while the team is on v2, so its post analysis (and therefore its sample) is v2.
      const p9: SeedPost = { ...posts[1], id: 'p9' };
      await f.posts(teamId, [p9]);
      const expected = expectedMembers([p9], 2, () => true);
      for (const dimension of DIMENSIONS) {
        for (const bucket of BUCKET_KEYS) {
          const { rows, pages } = await f.pages(
            `/posts/p9/analysis/comments?${dimension}=${bucket}&limit=100`,
            key,
          );
          expect(rows.every((r) => r.buckets[dimension] === bucket && r.postId === 'p9')).toBe(true);
          expect(new Set(rows.map((r) => r.commentId))).toEqual(expected.get(`${dimension}:${bucket}`));
          expect(pages[0].meta).toMatchObject({ postId: 'p9', scoreVersion: 2, total: rows.length });
        }
      }
      expect(expected.get('sentiment:neutral')!.size).toBeGreaterThan(0);
      // p2 was scored under v3: its sample stays v3 (no neutral sentiment bar) after the switch.
      const p2 = await f.get('/posts/p2/analysis/comments?sentiment=neutral', key);
      expect([p2.body.meta.scoreVersion, p2.body.meta.total]).toEqual([3, 0]);
    } finally {
      await f.scoreVersion(teamId, 3);
    }
  });
});
