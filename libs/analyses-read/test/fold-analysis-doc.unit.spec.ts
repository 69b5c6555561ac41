import { analysisDecider, type AnalysisResult } from '@analyst/domain-analysis';
import { MemoryReadStore, ProjectionRuntime, type RecordedEvent } from '@analyst/platform';
import {
  ANALYSES,
  analysesProjector,
  analysisDocOfStream,
  foldAnalysisDoc,
  type AnalysisDoc,
} from '@analyst/analyses-read';

// A creating request answers with foldAnalysisDoc over the events it appended instead of reading the
// read model back; it must be the very document the projection writes from the same events.
describe('foldAnalysisDoc', () => {
  const created = {
    analysisId: 'an_1',
    teamId: 'team_1',
    kind: 'snapshot' as const,
    selection: { type: 'postIds' as const, postIds: ['p1', 'p2'] },
    filters: { sentiment: ['negative' as const] },
    search: null,
    include: ['comments'],
    postIds: ['p1', 'p2'],
    postCount: 2,
    selectionTruncated: false,
    settings: { scoreVersion: 3 as const, engagementWeight: 0.5 },
    createdAt: '2026-11-25T10:00:00.000Z',
    expiresAt: '2026-12-25T10:00:00.000Z',
  };
  const result = {
    scope: { matchedComments: 41 },
    commentAnalysis: { scores: { serviceScore: 62 } },
  } as unknown as AnalysisResult;

  const recorded = (events: { type: string; data: unknown }[]): RecordedEvent[] =>
    events.map((event, revision) => ({
      ...event,
      id: `ev-${revision}`,
      schemaVersion: 1,
      metadata: { correlationId: 'an_1', causationId: null, teamId: 'team_1', occurredAt: created.createdAt },
      streamId: 'analysis-an_1',
      revision,
      position: revision,
    }));

  it.each([
    ['an inline snapshot (created and completed in one append)', { ...created, result }],
    ['a queued analysis', created],
  ])('is what the projection writes for %s', async (_name, data) => {
    const events = analysisDecider.decide({ type: 'CreateAnalysis', data }, analysisDecider.initialState());
    const store = new MemoryReadStore();
    await new ProjectionRuntime(store, [analysesProjector]).applyPage(recorded(events));
    const { _streams, _version, ...projected } = (await store
      .collection<AnalysisDoc & { _streams: unknown; _version: number }>(ANALYSES)
      .findOne({ _id: 'an_1' }))!;
    expect(foldAnalysisDoc('an_1', events)).toEqual(projected);
    expect(projected.status).toBe('result' in data ? 'ready' : 'queued');
    expect(projected.resultSummary).toEqual(
      'result' in data ? { matchedComments: 41, serviceScore: 62 } : null,
    );
  });

  it('is null when no event creates the document', () => {
    expect(foldAnalysisDoc('an_1', [])).toBeNull();
  });

  // Sampling reads an analysis from its stream as stored, the search's matched chunks included.
  it('reads a stored stream as the projection does, past the search matches it does not fold', async () => {
    const queued = analysisDecider.decide(
      { type: 'CreateAnalysis', data: created },
      analysisDecider.initialState(),
    );
    const at = '2026-11-25T10:00:05.000Z';
    const stream = recorded([
      ...queued,
      {
        type: 'AnalysisSearchMatched',
        data: { analysisId: 'an_1', chunk: 0, chunks: 1, commentIds: ['c1'], at },
      },
      { type: 'AnalysisCompleted', data: { analysisId: 'an_1', result, at } },
    ]);
    const store = new MemoryReadStore();
    await new ProjectionRuntime(store, [analysesProjector]).applyPage(stream);
    const { _streams, _version, ...projected } = (await store
      .collection<AnalysisDoc & { _streams: unknown; _version: number }>(ANALYSES)
      .findOne({ _id: 'an_1' }))!;
    const doc = analysisDocOfStream('an_1', stream);
    expect(doc).toEqual(projected);
    expect(doc?.status).toBe('ready');
    expect(doc?.completedAt).toBe(at);
    expect(doc?.resultSummary).toEqual({ matchedComments: 41, serviceScore: 62 });
    expect(analysisDocOfStream('an_1', [])).toBeNull();
  });
});
