import type { FetchedComment, ProviderPost } from '@analyst/contracts';
import { SimulatedProvider } from '@analyst/provider-sim';
import { LexiconScorer, sentimentOf } from '@analyst/scoring';

// Issue 16, item 7: the quality bench scores with sentimentOf, so what the pipeline stores must be
// exactly that reading, or the bench would measure something the product never shows.
const POST: ProviderPost = {
  link: 'https://youtube.com/watch?v=abcdefghijk',
  platform: 'youtube',
  creator: { username: 'mayachen', name: 'Maya Chen' },
  title: 'Why rent control will not fix the housing crisis',
  caption: 'Rent control keeps failing. Here is how zoning reform works. #housing',
  description: null,
  engagement: { views: 10_000, likes: 500, comments: 20, shares: 10 },
  postedAt: '2026-10-01T00:00:00Z',
  postType: 'video',
  thumbnail: null,
};

const BODIES = [
  'Not bad at all',
  'NOT worth it',
  'no problem, happy to help',
  'good...',
  'This is sick! 🔥🔥🔥',
  'mid video ngl',
  'Your editing is amazing but rent control is a scam',
  'zoning reform is the answer, great explanation',
  '💀💀',
  'Me encanta este video, muy bueno de verdad',
  'Ik vind deze video echt heel goed gemaakt, dank je wel',
  'Is this filmed in Berlin?',
  '   ',
  '',
];

function comment(id: number, body: string): FetchedComment {
  return {
    id: `c${id}`,
    parentId: null,
    authorUsername: `user${id}`,
    authorIsCreator: false,
    body,
    likes: 0,
    postedAt: '2026-10-02T00:00:00Z',
    hidden: false,
  };
}

const stored = (reading: number) => (Number.isNaN(reading) ? null : reading);

describe('sentimentOf is what scorePost stores as sentiment', () => {
  it('for hand-picked bodies: negation, "no", punctuation, emoji, slang, two targets, a language read and one not read, empty', () => {
    const out = new LexiconScorer().scorePost(
      POST,
      BODIES.map((b, i) => comment(i, b)),
    );
    expect(out.comments.map((c) => c.scores.sentiment)).toEqual(BODIES.map((b) => stored(sentimentOf(b))));
    // Not a vacuous match: the bodies span unscored, neutral, negative and positive readings.
    const readings = BODIES.map(sentimentOf);
    expect(readings.filter(Number.isNaN)).toHaveLength(3);
    // Spanish is read (positive); Dutch is not (unscored, never neutral).
    expect(sentimentOf('Me encanta este video, muy bueno de verdad')).toBeGreaterThan(5.5);
    expect(sentimentOf('Ik vind deze video echt heel goed gemaakt, dank je wel')).toBeNaN();
    expect(readings.some((r) => r === 5)).toBe(true);
    expect(readings.some((r) => r < 4.5)).toBe(true);
    expect(readings.some((r) => r > 5.5)).toBe(true);
  });

  it('for every comment of simulated sections on three platforms', async () => {
    const provider = new SimulatedProvider();
    let compared = 0;
    for (const link of [
      'https://x.com/creator3/status/1790000000000000006',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.tiktok.com/@creator/video/7300000000000000001',
    ]) {
      const result = await provider.fetchPost(link, { fullRead: true });
      if (result.status !== 'ok') throw new Error(`expected ok for ${link}`);
      const out = new LexiconScorer().scorePost(result.post, result.comments);
      out.comments.forEach((c, i) => {
        expect({ body: result.comments[i].body, sentiment: c.scores.sentiment }).toEqual({
          body: result.comments[i].body,
          sentiment: stored(sentimentOf(result.comments[i].body)),
        });
      });
      compared += out.comments.length;
    }
    expect(compared).toBeGreaterThan(50);
  });
});
