import { LexiconScorer } from '@analyst/scoring';
import { SECTION, SECTION_POST, sectionComments } from '../../scoring/test/spam-section.fixture';
import { samplingTest, type SampledRow, type SeedComment } from './sampling-fixture';

// The same real-looking section (libs/scoring/test/spam-section.fixture.ts: 44 comments, 10 of them
// spam, the spam liked more than most) scored by the real scorer and served through both notable
// routes of one analysis: its notableComments and the sample's source=notables and source=all.
const scoring = new LexiconScorer().scorePost(SECTION_POST, sectionComments());
const spamIds = SECTION.filter((c) => c.spam).map((c) => c.id);

const seeded: SeedComment[] = SECTION.map((c, i) => {
  const s = scoring.comments[i];
  return {
    id: c.id,
    body: c.body,
    likes: c.likes,
    reply: c.replyTo !== undefined,
    scores: s.scores,
    topicIndex: s.topicIndex,
    messageIndex: s.messageIndex,
  };
});

const isNotable = (row: SampledRow): boolean =>
  row.sampleReasons.includes('high_engagement') && row.sampleReasons.includes('high_relevance');

describe('spam is notable on no route (issue 37 item 5)', () => {
  let f: Awaited<ReturnType<typeof samplingTest>>;
  let key: string;
  let analysis: { id: string; commentAnalysis: { notableComments: { postId: string; commentId: string }[] } };

  beforeAll(async () => {
    f = await samplingTest();
    let teamId: string;
    ({ teamId, key } = await f.team());
    await f.posts(teamId, [
      { id: 'pxl9', comments: seeded, topics: scoring.topics, messages: scoring.messages },
    ]);
    const created = await f.post('/analyses', key, { selection: { postIds: ['pxl9'] } });
    expect(created.status).toBe(201);
    analysis = created.body.data;
  });
  afterAll(() => f.close());

  it("the analysis's notableComments hold no spam", () => {
    const ids = analysis.commentAnalysis.notableComments.map((n) => n.commentId);
    expect(ids).toEqual(['g02', 'g01', 'g27', 'g31', 'g03', 'g11', 'g07', 'g06', 'g15', 'g16']);
    expect(ids.filter((id) => spamIds.includes(id))).toEqual([]);
  });

  it('source=notables holds no spam, however liked: the same comments the analysis excludes stay out', async () => {
    const { rows } = await f.pages(`/analyses/${analysis.id}/comments?source=notables`, key);
    expect(rows.map((r) => r.commentId)).toEqual(['g02', 'g01']);
    expect(rows.filter((r) => spamIds.includes(r.commentId))).toEqual([]);
  });

  it('source=all leads with the same notable comments, and serves the spam only past them, unmarked', async () => {
    const { rows } = await f.pages(`/analyses/${analysis.id}/comments?source=all&limit=100`, key);
    expect(rows).toHaveLength(SECTION.length);
    expect(rows.slice(0, 2).map((r) => r.commentId)).toEqual(['g02', 'g01']);
    expect(rows.filter(isNotable).map((r) => r.commentId)).toEqual(['g02', 'g01']);
    const spamRows = rows.filter((r) => spamIds.includes(r.commentId));
    // The off_topic bucket (its key is 'negative'): counted in the relevance mix, never notable.
    expect(spamRows.map((r) => r.buckets.relevance)).toEqual(spamIds.map(() => 'negative'));
    expect(spamRows.filter(isNotable)).toEqual([]);
  });

  it('the post route (no analysis) keeps spam out of its notables the same way', async () => {
    const { rows } = await f.pages(`/posts/pxl9/analysis/comments?source=notables`, key);
    expect(rows.map((r) => r.commentId)).toEqual(['g02', 'g01']);
  });
});
