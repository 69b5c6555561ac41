import { bucketOf, type FetchedComment, type ProviderPost } from '@analyst/contracts';
import { SimulatedProvider } from '@analyst/provider-sim';
import { emotionOf, extractCreatorSide, LexiconScorer, SCORER_NAME, SCORER_VERSION } from '@analyst/scoring';

const POST: ProviderPost = {
  link: 'https://youtube.com/watch?v=abcdefghijk',
  platform: 'youtube',
  creator: { username: 'mayachen', name: 'Maya Chen' },
  title: 'Why rent control will not fix the housing crisis',
  caption:
    'Sorry, but rent control is a terrible idea that keeps failing. Here is how zoning reform works, step by step. #housing #rent',
  description: null,
  engagement: { views: 10_000, likes: 500, comments: 20, shares: 10 },
  postedAt: '2026-10-01T00:00:00Z',
  postType: 'video',
  thumbnail: null,
};

let seq = 0;
function comment(body: string, extra: Partial<FetchedComment> = {}): FetchedComment {
  return {
    id: `c${seq++}`,
    parentId: null,
    authorUsername: `user${seq}`,
    authorIsCreator: false,
    body,
    likes: 0,
    postedAt: '2026-10-02T00:00:00Z',
    hidden: false,
    ...extra,
  };
}

const scorer = new LexiconScorer();
function scoreOne(body: string, post = POST) {
  const [scored] = scorer.scorePost(post, [comment(body)]).comments;
  return scored;
}
const bucket = (dim: 'sentiment' | 'content' | 'topic' | 'relevance' | 'consensus', score: number | null) =>
  score === null ? null : bucketOf(dim, score, 2);

describe('LexiconScorer: identity', () => {
  it('names itself and stamps every comment, hidden ones included', () => {
    expect(scorer.name).toBe('analyst-lexicon');
    expect(SCORER_NAME).toBe('analyst-lexicon');
    expect(scorer.version).toMatch(/^\d+\.\d+\.\d+$/);
    const out = scorer.scorePost(POST, [
      comment('Great video'),
      comment("You're an idiot 🤡", { hidden: true }),
    ]);
    expect(out.comments).toHaveLength(2);
    for (const c of out.comments) {
      expect(c.scorer).toEqual({ name: 'analyst-lexicon', version: SCORER_VERSION });
      expect(c.scores.sentiment).not.toBeNull();
    }
    expect(out.comments[1].scores.sentiment!).toBeLessThan(4.5);
  });

  it('reads an emotion in each comment it reads as English, none in another language or an empty body', () => {
    const out = scorer.scorePost(POST, [
      comment("I'm so scared of what happens next"),
      comment('this is disgusting'),
      comment('rest in peace, I miss him'),
      comment('lol'), // too short to tell the language: read as English
      comment('El control de alquileres nunca funciona, es una idea terrible para todos'),
      comment(''),
    ]);
    expect(out.comments.map((c) => [c.language, c.emotion])).toEqual([
      ['en', 'fear'],
      ['en', 'disgust'],
      ['en', 'sadness'],
      [null, emotionOf('lol')],
      ['es', null],
      [null, null],
    ]);
    expect(emotionOf('lol')).not.toBeNull();
  });

  it('an empty section still yields the creator topics', () => {
    const out = scorer.scorePost(POST, []);
    expect(out.comments).toEqual([]);
    expect(out.topics.length).toBeGreaterThan(0);
  });
});

describe('creator topics and messages', () => {
  it('extracts keyphrases from title and caption, with stance from the sentence naming each', () => {
    const side = extractCreatorSide(POST);
    expect(side.topics.map((t) => t.title)).toEqual(['rent control', 'housing', 'zoning reform']);
    expect(side.topics[0].description).toBe('Sorry, but rent control is a terrible idea that keeps failing.');
    expect(side.topics[1].description).toBe('Why rent control will not fix the housing crisis');
    expect(side.messages).toEqual([
      { topic: 'rent control', stance: 'criticizes' },
      { topic: 'housing', stance: 'criticizes' },
      { topic: 'zoning reform', stance: 'explains' },
    ]);
    const out = scorer.scorePost(POST, []);
    expect(out.topics[2]).toEqual({
      title: 'zoning reform',
      description: 'Here is how zoning reform works, step by step.',
    });
    expect(out.messages).toEqual(side.messages);
  });

  it("finds the simulated posts' topics (supports / criticizes / explains captions)", () => {
    const supports = {
      ...POST,
      title: 'Heat pumps tested in winter',
      caption:
        'I am a big fan of heat pumps, it really works. Here is how battery range works, step by step. #EV',
    };
    const side = extractCreatorSide(supports);
    expect(side.topics.map((t) => t.title)).toEqual(['heat pumps', 'battery range']);
    expect(side.messages.map((m) => m.stance)).toEqual(['supports', 'explains']);
  });

  it('is deterministic', () => {
    expect(extractCreatorSide(POST)).toEqual(extractCreatorSide({ ...POST }));
  });
});

describe('hand-labelled comments', () => {
  it('"Love this, you nailed it 🔥": positive on sentiment and content ("nailed it" is praise, 🔥 +0.56 from the Emoji Sentiment Ranking)', () => {
    const s = scoreOne('Love this, you nailed it 🔥').scores;
    // VADER: love 3.2 + "nailed it" 2.6 + 🔥 0.56 = 6.36 → compound 0.8541 (was 7.11 with 🔥 read as "fire", -1.4);
    // slang ("nailed it") is read by VADER alone, not blended with the trained model (English sentiment model, README).
    expect(s.sentiment).toBe(9.271);
    expect(bucket('sentiment', s.sentiment)).toBe('positive');
    expect(s.content).toBe(9.271);
    expect(bucket('content', s.content)).toBe('positive');
  });

  it('"This take on housing is wrong and you know it": topic on the negative side, engaging the housing topic', () => {
    const c = scoreOne('This take on housing is wrong and you know it');
    expect(c.scores.topic).toBe(2.576); // VADER alone 3.082; the trained model's blend reads it firmer
    expect(bucket('topic', c.scores.topic)).toBe('negative');
    expect(c.topicIndex).toBe(1);
    expect(c.messageIndex).toBe(1);
  });

  it('"Check out my channel!!!": relevance off_topic (negative); no content or topic signal', () => {
    const s = scoreOne('Check out my channel!!!').scores;
    expect(s.relevance).toBe(1.5);
    expect(bucket('relevance', s.relevance)).toBe('negative');
    expect(s.content).toBeNull();
    expect(s.topic).toBeNull();
  });

  it('"Great video but rent control is a disaster": content positive, topic negative', () => {
    const c = scoreOne('Great video but rent control is a disaster');
    expect(bucket('content', c.scores.content)).toBe('positive');
    expect(bucket('topic', c.scores.topic)).toBe('negative');
    expect(c.topicIndex).toBe(0);
  });

  it('a topic-only comment aligns with a creator who criticizes the topic: content mirrors topic around 5', () => {
    const c = scoreOne('Rent control is a disaster');
    expect(c.scores.topic).toBe(1.655); // "disaster": VADER -0.6249 (2.5), with the trained model's blend 1.655
    expect(bucket('topic', c.scores.topic)).toBe('negative');
    // Mirrored on the 1-10 scale, so the v2/v3 average is 5 (no lean), not 5 + |c|/2 as the mirrored compound gave.
    expect(c.scores.content).toBe(8.345);
    expect((c.scores.content! + c.scores.topic!) / 2).toBe(5);
    expect(bucket('content', c.scores.content)).toBe('positive');
    expect(c.messageIndex).toBe(0);
  });

  it('on-topic praise naming the creator is on_topic and positive', () => {
    const s = scoreOne('Zoning reform is brilliant, thank you Maya!').scores;
    expect(bucket('relevance', s.relevance)).toBe('positive');
    expect(bucket('sentiment', s.sentiment)).toBe('positive');
  });

  it('a generic reaction is general relevance; an unrelated remark is off_topic', () => {
    expect(bucket('relevance', scoreOne('lol').scores.relevance)).toBe('lean_negative');
    expect(bucket('relevance', scoreOne('My cat just knocked my coffee over 😂😂').scores.relevance)).toBe(
      'negative',
    );
  });

  it('a reply "Exactly, agreed" makes its parent\'s consensus high (agreeing); a hostile reply makes it low (fighting)', () => {
    const parent = comment('Rent control never works');
    const agree = comment('Exactly, agreed', { parentId: parent.id });
    const other = comment('Zoning reform is the answer');
    const fight = comment("You're an idiot", { parentId: other.id });
    const out = scorer.scorePost(POST, [parent, agree, other, fight]).comments;
    expect(bucket('consensus', out[0].scores.consensus)).toBe('positive');
    expect(bucket('consensus', out[1].scores.consensus)).toBe('positive');
    expect(bucket('consensus', out[2].scores.consensus)).toBe('negative');
    expect(bucket('consensus', out[3].scores.consensus)).toBe('negative');
  });

  it('a lone comment gets 5 to 7 consensus from its likes only (discussing)', () => {
    const out = scorer.scorePost(POST, [
      comment('Nice', { likes: 0 }),
      comment('Nice', { likes: 10_000 }),
      ...Array.from({ length: 20 }, () => comment('ok', { likes: 3 })),
    ]).comments;
    expect(out[0].scores.consensus).toBe(5);
    expect(out[1].scores.consensus).toBe(7);
    expect(bucket('consensus', out[0].scores.consensus)).toBe('lean_positive');
  });

  it('a reply without its own topic words borrows relevance from its parent', () => {
    const parent = comment('Rent control never works, zoning reform does');
    const reply = comment('Exactly, agreed', { parentId: parent.id });
    const out = scorer.scorePost(POST, [parent, reply]).comments;
    expect(out[1].scores.relevance!).toBeGreaterThan(scoreOne('Exactly, agreed').scores.relevance!);
  });
});

describe('on a simulated section', () => {
  it('scores every comment within 1-10 (or null for content/topic), deterministically', async () => {
    const provider = new SimulatedProvider();
    const result = await provider.fetchPost('https://x.com/creator3/status/1790000000000000006', {
      fullRead: true,
    });
    if (result.status !== 'ok') throw new Error('expected ok');
    const out = scorer.scorePost(result.post, result.comments);
    expect(out).toEqual(new LexiconScorer().scorePost(result.post, result.comments));
    expect(out.comments.map((c) => c.commentId)).toEqual(result.comments.map((c) => c.id));
    for (const c of out.comments) {
      for (const v of Object.values(c.scores)) if (v !== null) expect(v >= 1 && v <= 10).toBe(true);
      if (c.topicIndex !== null) expect(c.topicIndex).toBeLessThan(out.topics.length);
      if (c.messageIndex !== null) expect(c.messageIndex).toBeLessThan(out.messages.length);
    }
    expect(out.comments.some((c) => c.topicIndex !== null)).toBe(true);
  });
});
