import { bucketOf } from '@analyst/contracts';
import {
  allRows,
  appendRow,
  createColumns,
  hasMention,
  hasQuestionMark,
  mayBeNotable,
  notableRows,
  tokenize,
  Vocabulary,
} from '@analyst/domain-analysis';
import { LexiconScorer } from '@analyst/scoring';
import { isNotableRow, likesFloor, rowFlags } from '../../sampling/src/sample/draw-sample';
import { SECTION, SECTION_POST, sectionComments } from './spam-section.fixture';

// A real-looking section (spam-section.fixture.ts) scored by the real scorer, then read by both notable
// rules: the analysis's notableComments (notableRows) and the sample routes' notable tier (isNotableRow,
// over rowFlags with the post's likes floor). libs/sampling's notables-spam e2e test serves the same
// section through the HTTP routes.
const scored = new LexiconScorer().scorePost(SECTION_POST, sectionComments()).comments;
const ids = SECTION.map((c) => c.id);
const spamIds = SECTION.filter((c) => c.spam).map((c) => c.id);

const offTopic = (relevance: number): boolean => bucketOf('relevance', relevance, 3) === 'negative';

function columnsOfSection() {
  const vocab = new Vocabulary();
  const columns = createColumns(SECTION.length);
  scored.forEach((s, i) => {
    const c = SECTION[i];
    appendRow(columns, {
      scores: {
        sentiment: s.scores.sentiment ?? Number.NaN,
        content: s.scores.content ?? Number.NaN,
        topic: s.scores.topic ?? Number.NaN,
        relevance: s.scores.relevance ?? Number.NaN,
        consensus: s.scores.consensus ?? Number.NaN,
      },
      likes: c.likes,
      isReply: c.replyTo !== undefined,
      isCreator: false,
      hidden: false,
      hasQuestion: hasQuestionMark(c.body),
      hasMention: hasMention(c.body),
      hasEmoji: tokenize(c.body).some((t) => t.kind === 'emoji'),
      authorId: i,
      postedAt: Date.parse(SECTION_POST.postedAt) / 1000 + i,
      tokens: vocab.encode(c.body),
    });
  });
  return columns;
}

describe('a real-looking section with spam: which comments each notable route shows', () => {
  const columns = columnsOfSection();
  const relevance = scored.map((s) => s.scores.relevance!);

  it('reads every spam comment, the obfuscated links included, as off-topic (relevance 1.5)', () => {
    expect(SECTION.length).toBeGreaterThanOrEqual(40);
    expect(spamIds).toHaveLength(10);
    expect(ids.filter((_, i) => relevance[i] === 1.5)).toEqual(spamIds);
    // Off-topic besides the spam: the relevance rule's talk about something else (no spam rule involved).
    expect(ids.filter((_, i) => offTopic(relevance[i]) && !SECTION[i].spam)).toEqual([
      'g09',
      'g23',
      'g24',
      'g26',
      'g32',
    ]);
  });

  it("the analysis's notableComments: the ten most liked relevant comments, none of them spam", () => {
    const notable = notableRows(columns, allRows(columns)).map((r) => ids[r]);
    // (1 + ln(1 + likes)) × relevance/10: g02 (1 + ln 241) × 0.83 = 5.38 leads, g01 (1 + ln 311) × 0.74 = 4.99.
    expect(notable).toEqual(['g02', 'g01', 'g27', 'g31', 'g03', 'g11', 'g07', 'g06', 'g15', 'g16']);
    expect(notable.filter((id) => spamIds.includes(id))).toEqual([]);
  });

  it("the sample routes' notable tier: high engagement and high relevance, none of them spam", () => {
    const floor = likesFloor(SECTION.map((c) => c.likes));
    // The 90th percentile of the section's 44 likes (the 39th lowest).
    expect(floor).toBe(240);
    const notable = ids.filter((_, i) =>
      isNotableRow(
        rowFlags(
          SECTION[i].likes,
          floor,
          relevance[i],
          scored[i].topicIndex ?? -1,
          scored[i].messageIndex ?? -1,
          3,
        ),
        relevance[i],
      ),
    );
    expect(notable).toEqual(['g01', 'g02']);
    // Spam is liked: four of the six comments at or above the floor are spam.
    const engaged = ids.filter((_, i) => SECTION[i].likes >= floor);
    expect(engaged).toEqual(['g01', 'g02', 's01', 's02', 's03', 's04']);
  });

  it('both routes exclude the same comments: exactly those mayBeNotable refuses', () => {
    const refused = ids.filter((_, i) => !mayBeNotable(relevance[i]));
    expect(refused).toEqual(ids.filter((_, i) => offTopic(relevance[i])));
    expect(refused).toEqual(expect.arrayContaining(spamIds));
  });
});
