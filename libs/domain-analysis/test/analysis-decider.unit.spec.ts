import {
  analysisDecider,
  AnalysisRuleError,
  type AnalysisCommand,
  type AnalysisEvent,
  type AnalysisCreatedData,
} from '../src';

const created: AnalysisCreatedData = {
  analysisId: 'an_1',
  teamId: 'tm_1',
  kind: 'snapshot',
  selection: { type: 'postIds', postIds: ['p1'] },
  filters: null,
  search: null,
  include: [],
  postIds: ['p1'],
  postCount: 1,
  selectionTruncated: false,
  settings: { scoreVersion: 3, engagementWeight: 1 },
  createdAt: '2026-03-10T12:00:00.000Z',
  expiresAt: '2026-03-17T12:00:00.000Z',
};
const given = (events: AnalysisEvent[]) => ({
  when: (command: AnalysisCommand) =>
    analysisDecider.decide(command, events.reduce(analysisDecider.evolve, analysisDecider.initialState())),
});
const at = '2026-03-10T12:00:01.000Z';

describe('analysis decider', () => {
  it('creates queued, or ready in one append when the result comes with it', () => {
    expect(given([]).when({ type: 'CreateAnalysis', data: created })).toEqual([
      { type: 'AnalysisCreated', data: created },
    ]);
    expect(given([]).when({ type: 'CreateAnalysis', data: created, result: { x: 1 } })).toEqual([
      { type: 'AnalysisCreated', data: created },
      { type: 'AnalysisCompleted', data: { analysisId: 'an_1', result: { x: 1 }, at: created.createdAt } },
    ]);
  });
  it('queued → running → ready', () => {
    const start: AnalysisEvent = {
      type: 'AnalysisStarted',
      data: { analysisId: 'an_1', phase: 'loading', percent: 0, at },
    };
    expect(
      given([{ type: 'AnalysisCreated', data: created }]).when({
        type: 'StartAnalysis',
        phase: 'loading',
        at,
      }),
    ).toEqual([start]);
    expect(
      given([{ type: 'AnalysisCreated', data: created }, start]).when({
        type: 'StartAnalysis',
        phase: 'loading',
        at,
      }),
    ).toEqual([]);
    expect(
      given([{ type: 'AnalysisCreated', data: created }, start]).when({
        type: 'ReportProgress',
        phase: 'searching',
        percent: 40,
        at,
      }),
    ).toEqual([
      { type: 'AnalysisProgressed', data: { analysisId: 'an_1', phase: 'searching', percent: 40, at } },
    ]);
    expect(
      given([{ type: 'AnalysisCreated', data: created }, start]).when({
        type: 'CompleteAnalysis',
        result: 1,
        at,
      }),
    ).toEqual([{ type: 'AnalysisCompleted', data: { analysisId: 'an_1', result: 1, at } }]);
  });
  it('fails from queued or running; terminal states never move', () => {
    expect(
      given([{ type: 'AnalysisCreated', data: created }]).when({ type: 'FailAnalysis', message: 'boom', at }),
    ).toEqual([{ type: 'AnalysisFailed', data: { analysisId: 'an_1', message: 'boom', at } }]);
    const failed: AnalysisEvent[] = [
      { type: 'AnalysisCreated', data: created },
      { type: 'AnalysisFailed', data: { analysisId: 'an_1', message: 'x', at } },
    ];
    expect(given(failed).when({ type: 'FailAnalysis', message: 'again', at })).toEqual([]);
    expect(() => given(failed).when({ type: 'CompleteAnalysis', result: 1, at })).toThrow(AnalysisRuleError);
    expect(() =>
      given([{ type: 'AnalysisCreated', data: created }]).when({ type: 'CreateAnalysis', data: created }),
    ).toThrow('exists');
  });
  it('records the matches of a running search in chunks of 5,000 ids, one empty chunk for none; only for a running search', () => {
    const search: AnalysisEvent = { type: 'AnalysisCreated', data: { ...created, kind: 'search' } };
    const start: AnalysisEvent = {
      type: 'AnalysisStarted',
      data: { analysisId: 'an_1', phase: 'loading', percent: 0, at },
    };
    const ids = Array.from({ length: 12_001 }, (_, i) => `c${i}`);
    const events = given([search, start]).when({ type: 'RecordSearchMatches', commentIds: ids, at });
    expect(events.map((e) => e.type)).toEqual([
      'AnalysisSearchMatched',
      'AnalysisSearchMatched',
      'AnalysisSearchMatched',
    ]);
    expect(
      events.map((e) => [
        (e.data as { chunk: number }).chunk,
        (e.data as { chunks: number }).chunks,
        (e.data as { commentIds: string[] }).commentIds.length,
      ]),
    ).toEqual([
      [0, 3, 5000],
      [1, 3, 5000],
      [2, 3, 2001],
    ]);
    expect(events.flatMap((e) => (e.data as { commentIds: string[] }).commentIds)).toEqual(ids);
    expect(given([search, start]).when({ type: 'RecordSearchMatches', commentIds: [], at })).toEqual([
      {
        type: 'AnalysisSearchMatched',
        data: { analysisId: 'an_1', chunk: 0, chunks: 1, commentIds: [], at },
      },
    ]);
    // Still running afterwards; a snapshot or a queued search records nothing.
    expect(given([search, start, ...events]).when({ type: 'CompleteAnalysis', result: 1, at })).toHaveLength(
      1,
    );
    expect(() =>
      given([{ type: 'AnalysisCreated', data: created }, start]).when({
        type: 'RecordSearchMatches',
        commentIds: [],
        at,
      }),
    ).toThrow(AnalysisRuleError);
    expect(() => given([search]).when({ type: 'RecordSearchMatches', commentIds: [], at })).toThrow(
      'not a running search',
    );
  });
});
