import {
  Vocabulary,
  appendRow,
  allRows,
  createColumns,
  selectRows,
  NO_COMMENT_FILTER,
  wordCloud,
  emojiCloud,
  notableRows,
  completenessOf,
  dedupeCreatorContent,
  dailyMetrics,
  tokenize,
  hasMention,
  hasQuestionMark,
  type CompiledCommentFilter,
} from '../src';

const vocab = new Vocabulary();
const authors = ['alice', 'bob', 'carol', 'dave', 'erin'];
const columns = createColumns(4);
const comments = [
  {
    author: 'alice',
    body: 'Great battery life, great camera 😍',
    likes: 10,
    reply: false,
    creator: false,
    at: '2026-03-01T10:00:00Z',
    s: 9,
  },
  {
    author: 'bob',
    body: 'Battery life is awful. Why? @alice',
    likes: 0,
    reply: true,
    creator: false,
    at: '2026-03-01T12:00:00Z',
    s: 2,
  },
  {
    author: 'carol',
    body: 'Thanks everyone!',
    likes: 50,
    reply: false,
    creator: true,
    at: '2026-03-02T09:00:00Z',
    s: 8,
  },
  {
    author: 'dave',
    body: 'battery life ok 😍😍 👍',
    likes: 3,
    reply: false,
    creator: false,
    at: '2026-03-03T09:00:00Z',
    s: 5,
  },
  {
    author: 'erin',
    body: 'hidden battery rant',
    likes: 100,
    reply: false,
    creator: false,
    at: '2026-03-03T10:00:00Z',
    s: 1,
    hidden: true,
  },
];
for (const c of comments) {
  appendRow(columns, {
    scores: { sentiment: c.s, content: c.s, topic: c.s, relevance: c.s, consensus: c.s },
    likes: c.likes,
    isReply: c.reply,
    isCreator: c.creator,
    hidden: c.hidden ?? false,
    hasQuestion: hasQuestionMark(c.body),
    hasMention: hasMention(c.body),
    hasEmoji: tokenize(c.body).some((t) => t.kind === 'emoji'),
    authorId: authors.indexOf(c.author),
    postedAt: Date.parse(c.at) / 1000,
    tokens: vocab.encode(c.body),
  });
}
const select = (filter: Partial<CompiledCommentFilter>, version: 1 | 2 | 3 = 2) =>
  Array.from(selectRows(columns, allRows(columns), { ...NO_COMMENT_FILTER, ...filter }, version));
const phrase = (text: string) => vocab.encodeExisting(text);

describe('tokenize', () => {
  it('lowercases words, keeps emoji as their own tokens, joins apostrophes', () => {
    expect(tokenize("Don't STOP 😍👍🏽 now")).toEqual([
      { text: 'dont', kind: 'word' },
      { text: 'stop', kind: 'word' },
      { text: '😍', kind: 'emoji' },
      { text: '👍🏽', kind: 'emoji' },
      { text: 'now', kind: 'word' },
    ]);
  });
});

describe('selectRows: every comment filter', () => {
  it.each<[string, Partial<CompiledCommentFilter>, number[]]>([
    ['no filter (hidden always out)', {}, [0, 1, 2, 3]],
    ['sentiment bucket', { buckets: { sentiment: ['positive'] } }, [0, 2]],
    ['two buckets OR', { buckets: { sentiment: ['negative', 'neutral'] } }, [1, 3]],
    [
      'buckets AND across dimensions',
      { buckets: { sentiment: ['positive'], relevance: ['positive'] } },
      [0, 2],
    ],
    ['keyword any', { keywords: [phrase('awful'), phrase('thanks')] }, [1, 2]],
    ['keyword all', { keywords: [phrase('battery'), phrase('camera')], keywordMatch: 'all' }, [0]],
    ['keyword phrase', { keywords: [phrase('battery life')] }, [0, 1, 3]],
    ['keyword never seen matches nothing', { keywords: [null] }, []],
    ['excludeKeywords', { excludeKeywords: [phrase('great')] }, [1, 2, 3]],
    ['usernames', { authors: new Set([0, 3]) }, [0, 3]],
    ['excludeUsernames', { excludeAuthors: new Set([0]) }, [1, 2, 3]],
    ['creator only', { creator: 'only' }, [2]],
    ['creator exclude', { creator: 'exclude' }, [0, 1, 3]],
    ['replies only', { replies: 'only' }, [1]],
    ['replies exclude', { replies: 'exclude' }, [0, 2, 3]],
    ['questions only', { questions: 'only' }, [1]],
    ['mentions only', { mentions: 'only' }, [1]],
    ['emoji only', { emoji: 'only' }, [0, 3]],
    ['emoji exclude', { emoji: 'exclude' }, [1, 2]],
    ['minLikes', { minLikes: 10 }, [0, 2]],
    ['since', { sinceSec: Date.parse('2026-03-02T00:00:00Z') / 1000 }, [2, 3]],
    ['until', { untilSec: Date.parse('2026-03-01T12:00:00Z') / 1000 }, [0, 1]],
  ])('%s', (_name, filter, expected) => {
    expect(select(filter)).toEqual(expected);
  });

  it('excludes comments unscored on a filtered dimension', () => {
    const c = createColumns(2);
    appendRow(c, { scores: { sentiment: 9 } });
    appendRow(c, { scores: { sentiment: 9, relevance: 9 } });
    expect(
      Array.from(
        selectRows(c, allRows(c), { ...NO_COMMENT_FILTER, buckets: { relevance: ['positive'] } }, 1),
      ),
    ).toEqual([1]);
  });
});

describe('clouds', () => {
  const rows = select({});
  it('word cloud counts comments per word and phrase, with sentiment fields', () => {
    const cloud = wordCloud(columns, rows, vocab, 2);
    // Row 1 (relevance 2) is off-topic: it stays out of the cloud but counts in the matched total.
    expect(cloud.find((w) => w.text === 'battery')).toEqual({
      text: 'battery',
      type: 'word',
      value: 2,
      avgSentiment: 7, // (9 + 5) / 2
      sentimentCategory: 'lean_positive',
      mentionPercentage: 50,
    });
    expect(cloud.find((w) => w.text === 'great')).toMatchObject({
      value: 1,
      avgSentiment: 9,
      sentimentCategory: 'positive',
    });
    expect(cloud.find((w) => w.text === 'battery life')).toMatchObject({ type: 'phrase', value: 2 });
    expect(cloud.find((w) => w.text === 'awful')).toBeUndefined(); // only in the off-topic row
    expect(cloud.find((w) => w.text === 'is' || w.text === 'ok')).toBeUndefined(); // stopwords and short words out
    expect(cloud.find((w) => w.text === 'hidden')).toBeUndefined(); // only the rows given
  });
  it('emoji cloud counts each emoji once per comment', () => {
    expect(emojiCloud(columns, rows, vocab, 2)).toEqual([
      { emoji: '😍', value: 2, avgSentiment: 7, sentimentCategory: 'lean_positive', mentionPercentage: 50 },
      { emoji: '👍', value: 1, avgSentiment: 5, sentimentCategory: 'neutral', mentionPercentage: 25 },
    ]);
    // v3: the readings of 5 lean neither way and are unscored, so 👍 (only in a comment reading 5) has no
    // average to show and 😍 averages its other comment alone.
    expect(emojiCloud(columns, rows, vocab, 3)).toEqual([
      { emoji: '😍', value: 2, avgSentiment: 9, sentimentCategory: 'positive', mentionPercentage: 50 },
    ]);
  });
});

describe('notables, completeness, creator content, daily metrics', () => {
  it('ranks by (1 + ln(1 + likes)) × relevance/10', () => {
    // row 2: (1+ln51)*0.8 = 3.95; row 0: (1+ln11)*0.9 = 3.06; row 3: (1+ln4)*0.5 = 1.19; row 1: 1*0.2
    expect(notableRows(columns, select({}), 3)).toEqual([2, 0, 3]);
  });
  it.each([
    [{ comments: 4, fullyScored: 4, anyScored: 4, hasContent: true }, 'full'],
    [{ comments: 4, fullyScored: 3, anyScored: 4, hasContent: true }, 'scores_and_content'],
    [{ comments: 4, fullyScored: 4, anyScored: 4, hasContent: false }, 'scores_only'],
    [{ comments: 4, fullyScored: 0, anyScored: 0, hasContent: true }, 'content_only'],
    [{ comments: 0, fullyScored: 0, anyScored: 0, hasContent: false }, 'unavailable'],
  ] as const)('%o -> %s', (input, expected) => {
    expect(completenessOf(input)).toBe(expected);
  });
  it('dedupes topics and messages across posts', () => {
    expect(
      dedupeCreatorContent([
        {
          topics: [{ title: 'Battery Life', description: null }],
          messages: [{ topic: 'battery', stance: 'lasts all day' }],
        },
        {
          topics: [
            { title: 'battery  life', description: 'how long it lasts' },
            { title: 'Camera', description: null },
          ],
          messages: [{ topic: 'Battery', stance: 'Lasts all day' }],
        },
      ]),
    ).toEqual({
      topics: [
        { title: 'Battery Life', description: 'how long it lasts', postCount: 2 },
        { title: 'Camera', description: null, postCount: 1 },
      ],
      messages: [{ topic: 'battery', stance: 'lasts all day', postCount: 2 }],
    });
  });
  it('rolls up per UTC day; content and topic mixes only from v2', () => {
    const v2 = dailyMetrics(columns, select({}), { scoreVersion: 2, engagementWeight: 1 });
    expect(v2.map((d) => [d.date, d.comments, d.scores.sentiment])).toEqual([
      ['2026-03-01', 2, 5.5],
      ['2026-03-02', 1, 8],
      ['2026-03-03', 1, 5],
    ]);
    expect(Object.keys(v2[0].mix).sort()).toEqual([
      'consensus',
      'content',
      'relevance',
      'sentiment',
      'topic',
    ]);
    const v1 = dailyMetrics(columns, select({}), { scoreVersion: 1, engagementWeight: 1 });
    expect(Object.keys(v1[0].mix).sort()).toEqual(['consensus', 'relevance', 'sentiment']);
  });
});
