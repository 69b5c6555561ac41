import { bucketOf, type FetchedComment, type ProviderPost } from '@analyst/contracts';
import { LexiconScorer } from '@analyst/scoring';

// A music video: a short title, no caption, the kind of section where promotion and genuine
// reactions share words ("song", "channel", "check").
const MUSIC_VIDEO: ProviderPost = {
  link: 'https://youtube.com/watch?v=musicvideo1',
  platform: 'youtube',
  creator: { username: 'LunaRiverVEVO', name: 'Luna River' },
  title: 'Luna River - Golden Hour (Official Video)',
  caption: '',
  description: null,
  engagement: { views: 1_000_000, likes: 50_000, comments: 10, shares: 100 },
  postedAt: '2026-10-01T00:00:00Z',
  postType: 'video',
  thumbnail: null,
};

let seq = 0;
function comment(body: string, extra: Partial<FetchedComment> = {}): FetchedComment {
  return {
    id: `m${seq++}`,
    parentId: null,
    authorUsername: `fan${seq}`,
    authorIsCreator: false,
    body,
    likes: 0,
    postedAt: '2026-10-02T00:00:00Z',
    hidden: false,
    ...extra,
  };
}

const scorer = new LexiconScorer();
function relevanceBucket(body: string): string {
  const [scored] = scorer.scorePost(MUSIC_VIDEO, [comment(body)]).comments;
  return bucketOf('relevance', scored.scores.relevance!, 3);
}

describe('spam and promotion are off_topic on a music video, whatever their wording', () => {
  it.each([
    'Check out my channel!!!',
    'Love Golden Hour! check out my cover of it on my channel',
    'Luna River fans, please subscribe to me, I sing too',
    'free gift cards at giftzone.net',
    'I made $300 a day from home with bitcoin, message me',
    'Copy and paste this on 5 videos or bad luck for a year',
    "I'm an upcoming rapper, give me a chance and listen to my mixtape",
  ])('%s → off_topic', (body) => {
    expect(relevanceBucket(body)).toBe('negative');
  });

  it('spam gets no content or topic reading', () => {
    const [scored] = scorer.scorePost(MUSIC_VIDEO, [
      comment('Golden Hour is great, check out my channel'),
    ]).comments;
    expect(scored.scores.relevance).toBe(1.5);
    expect(scored.scores.content).toBeNull();
  });
});

describe('genuine reactions on a music video are not off_topic', () => {
  it.each([
    'I love this song so much',
    'Absolutely amazing, beautiful masterpiece',
    'Best song ever, never gets old',
    'This reminds me of summer nights at the lake with my cousins',
    'Who else is watching this in 2026?',
    'Her voice gives me chills every single time',
    '2 billion views and counting',
    'Luna never misses',
  ])('%s → not off_topic', (body) => {
    expect(relevanceBucket(body)).not.toBe('negative');
  });

  it('a remark about something else is off_topic under a post that says what it is about, general under a bare title', () => {
    const remark = 'My cat knocked the coffee mug off the kitchen table';
    const described: ProviderPost = {
      ...MUSIC_VIDEO,
      caption:
        'Golden Hour is the first single from our new album Riverlight, written on a road trip through the desert last spring.',
    };
    const [underDescribed] = scorer.scorePost(described, [comment(remark)]).comments;
    expect(bucketOf('relevance', underDescribed.scores.relevance!, 3)).toBe('negative');
    // "Luna River - Golden Hour (Official Video)" holds 6 content words: too few to tell what is off-topic.
    expect(relevanceBucket(remark)).toBe('lean_negative');
  });
});
