import { EMOTIONS, type CommentScores, type Emotion } from '@analyst/contracts';
import { samplingTest, type SeedPost } from './sampling-fixture';

/**
 * Emotions on the sample routes, an extension of the spec (issue 37 item 4): every row carries
 * `emotion` (a name, or null for a comment not read), and both routes take an `emotion` filter
 * (comma-separated or repeated names; an unknown name is 400 and nothing is written).
 */

const all = (x: number): CommentScores => ({
  sentiment: x,
  content: x,
  topic: x,
  relevance: x,
  consensus: x,
});

const POSTS: SeedPost[] = [
  {
    id: 'm1',
    postedAt: '2026-03-05T10:00:00.000Z',
    comments: [
      { body: 'love it so much', scores: all(9), likes: 100, emotion: 'joy' }, // notable
      { body: 'this is a rip off', scores: all(2), likes: 50, emotion: 'anger' },
      { body: 'really nice', scores: all(8), emotion: 'joy' },
      { body: 'i miss the old version', scores: all(3), emotion: 'sadness' },
      { body: 'it ships in May', scores: all(5.2), emotion: 'neutral' },
      { body: 'muito bom mesmo', scores: all(6), emotion: null, language: 'pt' }, // not read as English
      { body: 'fine', scores: all(6) }, // scored before emotions
      { body: 'hidden and scared', scores: all(4), emotion: 'fear', hidden: true },
      { body: 'wait what', scores: all(7), emotion: 'surprise' },
      { body: 'haha ok but it broke', scores: all(4), emotion: 'joy' },
    ],
  },
  {
    id: 'm2',
    postedAt: '2026-03-06T10:00:00.000Z',
    comments: [
      { body: 'gross', scores: all(1), emotion: 'disgust' },
      { body: 'best thing ever', scores: all(9), likes: 10, emotion: 'joy' }, // notable
      { body: 'so annoying', scores: all(3), emotion: 'anger' },
    ],
  },
];

/** What the scorer stored for each visible comment (the hidden one never appears). */
const EMOTION_OF: Record<string, Emotion | null> = {
  'm1-c0': 'joy',
  'm1-c1': 'anger',
  'm1-c2': 'joy',
  'm1-c3': 'sadness',
  'm1-c4': 'neutral',
  'm1-c5': null,
  'm1-c6': null,
  'm1-c8': 'surprise',
  'm1-c9': 'joy',
  'm2-c0': 'disgust',
  'm2-c1': 'joy',
  'm2-c2': 'anger',
};
const idsOf = (emotions: readonly Emotion[]): string[] =>
  Object.keys(EMOTION_OF)
    .filter((id) => emotions.includes(EMOTION_OF[id]!))
    .sort();
const MESSAGE =
  'emotion: "rage" is not an emotion; use anger, disgust, fear, joy, sadness, surprise, neutral';

describe('emotions on the comment sample routes', () => {
  let f: Awaited<ReturnType<typeof samplingTest>>;
  let key: string;
  let analysisId: string;
  let mix: Record<string, number>;
  const routes = (): string[] => [`/analyses/${analysisId}/comments`, `/posts/m1/analysis/comments`];

  beforeAll(async () => {
    f = await samplingTest();
    let teamId: string;
    ({ teamId, key } = await f.team());
    await f.posts(teamId, POSTS);
    const created = await f.post('/analyses', key, {
      selection: { postIds: ['m1', 'm2'] },
      include: ['emotions'],
    });
    expect(created.status).toBe(201);
    analysisId = created.body.data.id;
    mix = created.body.data.commentAnalysis.emotions;
  });
  afterAll(() => f.close());

  it('every row carries the emotion the scorer stored: a name, or null for a comment not read', async () => {
    const res = await f.get(`/analyses/${analysisId}/comments?limit=100`, key);
    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.body.data.map((r) => [r.commentId, r.emotion]))).toEqual(EMOTION_OF);
    const post = await f.get(`/posts/m2/analysis/comments`, key);
    expect(Object.fromEntries(post.body.data.map((r) => [r.commentId, r.emotion]))).toEqual({
      'm2-c0': 'disgust',
      'm2-c1': 'joy',
      'm2-c2': 'anger',
    });
  });

  it('the analysis mix counts the comments with an emotion (10 of the 12 matched)', () => {
    expect(mix).toEqual({
      angerPercent: 20,
      disgustPercent: 10,
      fearPercent: 0,
      joyPercent: 40,
      sadnessPercent: 10,
      surprisePercent: 10,
      neutralPercent: 10,
    });
  });

  it('emotion=<name> returns exactly the comments of that emotion; echoed in meta.filters; a bucket_filter reason', async () => {
    const { rows, pages } = await f.pages(`/analyses/${analysisId}/comments?emotion=joy`, key);
    expect(rows.map((r) => r.commentId).sort()).toEqual(idsOf(['joy']));
    expect(pages[0].meta).toMatchObject({ filters: { emotion: ['joy'] }, total: 4 });
    for (const row of rows) {
      expect(row.emotion).toBe('joy');
      expect(row.sampleReasons).toContain('bucket_filter');
    }
  });

  it('names combine with OR (comma-separated or repeated), in EMOTIONS order; with bucket parameters with AND', async () => {
    const comma = await f.get(`/analyses/${analysisId}/comments?emotion=joy,anger&limit=100`, key);
    const repeated = await f.get(`/analyses/${analysisId}/comments?emotion=anger&emotion=joy&limit=100`, key);
    expect(comma.body.data.map((r) => r.commentId).sort()).toEqual(idsOf(['anger', 'joy']));
    expect(repeated.body.data.map((r) => r.commentId)).toEqual(comma.body.data.map((r) => r.commentId));
    expect(comma.body.meta.filters).toEqual({ emotion: ['anger', 'joy'] });
    // Joy and a positive sentiment bar (>= 7.5): not the joyful comment scored 4.
    const both = await f.get(`/analyses/${analysisId}/comments?emotion=joy&sentiment=positive`, key);
    expect(both.body.data.map((r) => r.commentId).sort()).toEqual(['m1-c0', 'm1-c2', 'm2-c1']);
    expect(both.body.meta.filters).toEqual({ sentiment: ['positive'], emotion: ['joy'] });
    const notables = await f.get(`/analyses/${analysisId}/comments?emotion=joy&source=notables`, key);
    expect(notables.body.data.map((r) => r.commentId).sort()).toEqual(['m1-c0', 'm2-c1']);
  });

  it('a share of the mix is the share of the comments a sample filtered on that emotion returns', async () => {
    const totals: Record<string, number> = {};
    for (const emotion of EMOTIONS) {
      const res = await f.get(`/analyses/${analysisId}/comments?emotion=${emotion}&limit=1`, key);
      totals[emotion] = res.body.meta.total;
    }
    const withOne = Object.values(totals).reduce((a, b) => a + b, 0);
    expect(withOne).toBe(10);
    for (const emotion of EMOTIONS)
      expect(Math.round((totals[emotion] / withOne) * 1000) / 10).toBe(mix[`${emotion}Percent`]);
    // The post route samples its post alone.
    const sad = await f.get(`/posts/m1/analysis/comments?emotion=sadness,fear`, key);
    expect(sad.body.data.map((r) => r.commentId)).toEqual(['m1-c3']);
  });

  it('pages through a filtered sample without overlap; its cursor is bound to the emotion filter', async () => {
    const { rows } = await f.pages(`/analyses/${analysisId}/comments?emotion=joy&limit=1`, key);
    expect(rows.map((r) => r.commentId).sort()).toEqual(idsOf(['joy']));
    const first = await f.get(`/analyses/${analysisId}/comments?emotion=joy&limit=1`, key);
    const cursor = encodeURIComponent(first.body.meta.nextCursor!);
    const other = await f.get(`/analyses/${analysisId}/comments?emotion=anger&limit=1&cursor=${cursor}`, key);
    expect([other.status, other.body.error.code]).toEqual([400, 'invalid_cursor']);
    const none = await f.get(`/analyses/${analysisId}/comments?limit=1&cursor=${cursor}`, key);
    expect([none.status, none.body.error.code]).toEqual([400, 'invalid_cursor']);
  });

  it('an unknown name is 400 invalid_filter on both routes, naming it and the seven; nothing is written', async () => {
    const head = await f.events.headPosition();
    for (const url of routes()) {
      for (const query of ['emotion=rage', 'emotion=joy,rage', 'emotion=joy&emotion=rage']) {
        const res = await f.get(`${url}?${query}`, key);
        expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
          400,
          'invalid_filter',
          MESSAGE,
        ]);
      }
      const empty = await f.get(`${url}?emotion=`, key);
      expect([empty.status, empty.body.error.code]).toEqual([400, 'invalid_request']);
    }
    expect(await f.events.headPosition()).toBe(head);
  });
});
