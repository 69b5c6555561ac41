import type { SearchModel } from '@analyst/comment-index';
import { analysisTest } from './analysis-fixture';

/**
 * The emotions mix, an extension of the spec (issue 37 item 4): `include: ['emotions']` on
 * POST /analyses returns `commentAnalysis.emotions` over the matched comments that have an
 * emotion; null when not requested; the post analysis carries it with every include.
 */

const day = (d: number) => `2026-03-0${d}T10:00:00.000Z`;
const ZERO = {
  angerPercent: 0,
  disgustPercent: 0,
  fearPercent: 0,
  joyPercent: 0,
  sadnessPercent: 0,
  surprisePercent: 0,
  neutralPercent: 0,
};

/** Relevance 1 for a comment holding the query as a word, else 0: the job's rule without a model. */
const wordSearch: SearchModel = {
  name: 'test-word',
  relevance: async (query, documents) =>
    Float64Array.from(documents, (d) => (d.text.split(/\W+/).includes(query) ? 1 : 0)),
};

describe('commentAnalysis.emotions (include: emotions)', () => {
  let f: Awaited<ReturnType<typeof analysisTest>>;
  let key: string;
  let teamId: string;

  beforeAll(async () => {
    f = await analysisTest({ searchModel: wordSearch });
    ({ teamId, key } = await f.team());
    await f.posts(teamId, [
      {
        id: 'e1',
        postedAt: day(1),
        comments: [
          { s: 9, emotion: 'joy', body: 'best battery ever', likes: 3 },
          { s: 8, emotion: 'joy', body: 'love it' },
          { s: 2, emotion: 'anger', body: 'the battery is a scam' },
          { s: 3, emotion: 'sadness', body: 'miss the old one' },
          { s: 5, emotion: 'neutral', body: 'it ships in May' },
          // Not read as English: counted in the analysis, in no emotion share.
          { s: 5, emotion: null, body: 'muy bien la batería' },
          { s: 9, emotion: 'joy', body: 'hidden joy', hidden: true },
        ],
      },
      {
        id: 'e2',
        postedAt: day(2),
        comments: [
          { s: 4, emotion: 'fear', body: 'scared the battery will explode' },
          { s: 7, emotion: 'surprise', body: 'wait what' },
          { s: 1, emotion: 'disgust', body: 'gross' },
          // Scored before emotions (no field): read as none.
          { s: 6, body: 'fine' },
          { s: 9, emotion: 'joy', body: 'amazing battery' },
        ],
      },
      // Scored before emotions: no comment has one.
      {
        id: 'e3',
        postedAt: day(3),
        comments: [
          { s: 6, body: 'old' },
          { s: 3, body: 'older' },
        ],
      },
      { id: 'e4', postedAt: day(4), unscored: true, comments: [{ s: 5, emotion: 'joy' }] },
    ]);
  });
  afterAll(() => f.close());

  it('is the share of the matched comments with an emotion in each, counts rounded to 0.1; include echoed', async () => {
    const res = await f.post('/analyses', key, {
      selection: { postIds: ['e1', 'e2'] },
      include: ['emotions', 'wordCloud'],
    });
    expect(res.status).toBe(201);
    const a = res.body.data;
    expect(a.include).toEqual(['emotions', 'wordCloud']);
    // 11 visible comments matched, 9 with an emotion: joy 3, the six others 1 each.
    expect(a.commentAnalysis.totalComments).toBe(11);
    expect(a.commentAnalysis.emotions).toEqual({
      angerPercent: 11.1,
      disgustPercent: 11.1,
      fearPercent: 11.1,
      joyPercent: 33.3,
      sadnessPercent: 11.1,
      surprisePercent: 11.1,
      neutralPercent: 11.1,
    });
    expect(a.commentAnalysis.wordCloud).not.toBeNull();
    expect(a.commentAnalysis.emojiCloud).toBeNull();
    const again = await f.get(`/analyses/${a.id}`, key);
    expect(again.body.data.commentAnalysis.emotions).toEqual(a.commentAnalysis.emotions);
    expect(again.body.data.include).toEqual(['emotions', 'wordCloud']);
  });

  it('follows the filters: only the matched comments count', async () => {
    // Sentiment negative (< 3): the anger (2) and the disgust (1).
    const res = await f.post('/analyses', key, {
      selection: { postIds: ['e1', 'e2'] },
      filters: { sentiment: ['negative'] },
      include: ['emotions'],
    });
    expect(res.body.data.commentAnalysis.totalComments).toBe(2);
    expect(res.body.data.commentAnalysis.emotions).toEqual({ ...ZERO, angerPercent: 50, disgustPercent: 50 });
  });

  it('is 0 on every share when no matched comment has an emotion, and null when not requested', async () => {
    const none = await f.post('/analyses', key, { selection: { postIds: ['e3'] }, include: ['emotions'] });
    expect(none.body.data.commentAnalysis.totalComments).toBe(2);
    expect(none.body.data.commentAnalysis.emotions).toEqual(ZERO);
    const plain = await f.post('/analyses', key, { selection: { postIds: ['e1', 'e2'] } });
    expect(plain.body.data.include).toEqual([]);
    expect(plain.body.data.commentAnalysis.emotions).toBeNull();
  });

  it('reads null on a result recorded before the mix existed (it was never asked for then)', async () => {
    const plain = (await f.post('/analyses', key, { selection: { postIds: ['e1'] } })).body.data;
    // The same analysis as the log held it before: its AnalysisCompleted result has no emotions field.
    const recorded = await f.events.readStream(`analysis-${plain.id}`);
    const legacyId = `${plain.id}legacy`;
    const legacy = recorded.map((e) => {
      const data: Record<string, unknown> = { ...(e.data as object), analysisId: legacyId };
      if (e.type === 'AnalysisCompleted') {
        const result = data.result as { commentAnalysis: Record<string, unknown> };
        const { emotions: _gone, ...before } = result.commentAnalysis;
        data.result = { ...result, commentAnalysis: before };
      }
      return { type: e.type, data };
    });
    await f.append(`analysis-${legacyId}`, legacy, teamId);
    const read = await f.get(`/analyses/${legacyId}`, key);
    expect(read.status).toBe(200);
    expect(read.body.data.commentAnalysis.emotions).toBeNull();
    expect(read.body.data.commentAnalysis.totalComments).toBe(plain.commentAnalysis.totalComments);
  });

  it('an AI search job computes it over the comments the search matched', async () => {
    await f.jobs.stop();
    const res = await f.post('/analyses', key, {
      selection: { postIds: ['e1', 'e2'] },
      search: { query: 'battery', minRelevance: 0.5 },
      include: ['emotions'],
    });
    expect(res.status).toBe(202);
    await f.jobs.runJob(res.body.data.id);
    f.jobs.start();
    const done = (await f.get(`/analyses/${res.body.data.id}`, key)).body.data;
    expect(done.status).toBe('ready');
    // "battery": joy (best battery ever), anger, fear, joy (amazing battery).
    expect(done.scope.matchedComments).toBe(4);
    expect(done.include).toEqual(['emotions']);
    expect(done.commentAnalysis.emotions).toEqual({
      ...ZERO,
      angerPercent: 25,
      fearPercent: 25,
      joyPercent: 50,
    });
  });

  it('refuses an include it does not know, naming the three it takes; nothing created', async () => {
    const before = (await f.get('/analyses?limit=100', key)).body.data.length;
    const res = await f.post('/analyses', key, { selection: { postIds: ['e1'] }, include: ['emotion'] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/wordCloud, emojiCloud, emotions/);
    expect((await f.get('/analyses?limit=100', key)).body.data.length).toBe(before);
  });

  it('GET /posts/{id}/analysis carries it (every include), 0 on every share before scoring', async () => {
    const post = (await f.get('/posts/e1/analysis', key)).body.data;
    // e1's visible comments with an emotion: joy 2, anger, sadness, neutral.
    expect(post.commentAnalysis.emotions).toEqual({
      ...ZERO,
      angerPercent: 20,
      joyPercent: 40,
      sadnessPercent: 20,
      neutralPercent: 20,
    });
    const pending = (await f.get('/posts/e4/analysis', key)).body.data;
    expect(pending.commentAnalysis.emotions).toEqual(ZERO);
  });
});
