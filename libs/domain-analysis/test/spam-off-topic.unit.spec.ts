import type { FetchedComment, ProviderPost } from '@analyst/contracts';
import { LexiconScorer } from '@analyst/scoring';
import {
  Vocabulary,
  allRows,
  appendRow,
  createColumns,
  emojiCloud,
  hasMention,
  hasQuestionMark,
  notableRows,
  tokenize,
  wordCloud,
} from '../src';
import { isOffTopic } from '../src/off-topic';

// A music video's section, half promotion, scored by the real scorer. The spam is liked more than
// the genuine comments, so only the off-topic rule keeps it out of notables and clouds.
const POST: ProviderPost = {
  link: 'https://youtube.com/watch?v=offtopic001',
  platform: 'youtube',
  creator: { username: 'NovaBandVEVO', name: 'Nova Band' },
  title: 'Nova Band - Paper Planes (Official Video)',
  caption: '',
  description: null,
  engagement: { views: 500_000, likes: 20_000, comments: 8, shares: 10 },
  postedAt: '2026-09-01T00:00:00Z',
  postType: 'video',
  thumbnail: null,
};

const SECTION: { body: string; likes: number; spam: boolean }[] = [
  { body: 'Check out my channel, I make covers like this 🔥', likes: 900, spam: true },
  { body: 'please subscribe to my channel, check it out!! 🙏', likes: 800, spam: true },
  { body: 'sub4sub? check my channel 🔥', likes: 700, spam: true },
  { body: 'Win a free iPhone: check giftsnow.net and subscribe 🎁', likes: 600, spam: true },
  { body: 'This song is stuck in my head all week 🔥', likes: 40, spam: false },
  { body: 'Paper Planes is the best song of the year', likes: 30, spam: false },
  { body: 'the chorus of this song gives me chills', likes: 20, spam: false },
  { body: 'Nova Band never misses, what a song', likes: 10, spam: false },
];

function analysedSection() {
  const comments: FetchedComment[] = SECTION.map((c, i) => ({
    id: `c${i}`,
    parentId: null,
    authorUsername: `fan${i}`,
    authorIsCreator: false,
    body: c.body,
    likes: c.likes,
    postedAt: '2026-09-02T00:00:00Z',
    hidden: false,
  }));
  const scored = new LexiconScorer().scorePost(POST, comments).comments;
  const vocab = new Vocabulary();
  const columns = createColumns(SECTION.length);
  scored.forEach((s, i) => {
    const body = SECTION[i].body;
    appendRow(columns, {
      scores: {
        sentiment: s.scores.sentiment ?? Number.NaN,
        content: s.scores.content ?? Number.NaN,
        topic: s.scores.topic ?? Number.NaN,
        relevance: s.scores.relevance ?? Number.NaN,
        consensus: s.scores.consensus ?? Number.NaN,
      },
      likes: SECTION[i].likes,
      isReply: false,
      isCreator: false,
      hidden: false,
      hasQuestion: hasQuestionMark(body),
      hasMention: hasMention(body),
      hasEmoji: tokenize(body).some((t) => t.kind === 'emoji'),
      authorId: i,
      postedAt: Date.parse('2026-09-02T00:00:00Z') / 1000,
      tokens: vocab.encode(body),
    });
  });
  return { columns, vocab, rows: allRows(columns) };
}

describe('spam and promotion stay out of notables and clouds', () => {
  const { columns, vocab, rows } = analysedSection();

  it('the scorer puts every spam comment, and no genuine one, in the off_topic relevance bucket', () => {
    const offTopic = SECTION.map((_, r) => isOffTopic(columns.relevance[r]));
    expect(offTopic).toEqual(SECTION.map((c) => c.spam));
  });

  it('notables are the genuine comments only, however liked the spam is', () => {
    // Relevance 4, 7.2, 4, 7 (the last three name the song or the band): (1 + ln 31) × 0.72 = 3.19,
    // (1 + ln 11) × 0.7 = 2.38, (1 + ln 41) × 0.4 = 1.89, (1 + ln 21) × 0.4 = 1.62.
    expect(Array.from(columns.relevance.slice(4, 8))).toEqual([4, 7.2, 4, 7]);
    expect(notableRows(columns, rows)).toEqual([5, 7, 4, 6]);
  });

  it("the word cloud has no check / subscribe / channel, and leads with the genuine comments' words", () => {
    const cloud = wordCloud(columns, rows, vocab, 2);
    const texts = cloud.map((w) => w.text);
    for (const word of ['check', 'subscribe', 'channel', 'covers', 'iphone', 'sub4sub', 'giftsnow', 'net'])
      expect(texts).not.toContain(word);
    expect(cloud[0]).toMatchObject({ text: 'song', type: 'word', value: 4 });
    // Still a share of all 8 matched comments: the cloud leaves spam out, the section still holds it.
    expect(cloud[0].mentionPercentage).toBe(50);
  });

  it("the emoji cloud counts only the genuine comments' emoji", () => {
    expect(emojiCloud(columns, rows, vocab, 2).map((e) => [e.emoji, e.value])).toEqual([['🔥', 1]]);
  });
});

describe('isOffTopic', () => {
  it('is relevance below 3 (the off_topic bucket); an unscored relevance is not off-topic', () => {
    expect([1, 1.5, 2.99, 3, 4, 9.5, Number.NaN].map(isOffTopic)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
