import { savedAnalysisDecider, savedAnalysisStream, type SavedAnalysisData } from '../src';
import { DeciderSpecification } from '@analyst/eventsourcing/testing';

const data: SavedAnalysisData = {
  savedId: 'sa_1',
  teamId: 'tm_1',
  name: 'Launch week',
  kind: 'snapshot',
  analysisId: 'an_1',
  savedBy: 'u_1',
  payload: { insights: ['battery'] },
  shareToken: null,
  inviteEmails: ['a@example.com'],
  at: '2026-03-10T12:00:00.000Z',
};
const spec = DeciderSpecification.for(savedAnalysisDecider);
const given = (events: Parameters<typeof spec.given>[0]) => spec.given(events);

describe('saved-analysis decider', () => {
  it('saves a new analysis with what the app sent', () => {
    given([])
      .when({ type: 'SaveAnalysisInApp', data })
      .then([{ type: 'AnalysisSavedInApp', data }]);
  });

  it('appends nothing when the same saved analysis is saved again (a retried command)', () => {
    given([{ type: 'AnalysisSavedInApp', data }])
      .when({ type: 'SaveAnalysisInApp', data: { ...data, name: 'Renamed' } })
      .then([]);
  });

  it('names its stream by the saved id', () => {
    expect(savedAnalysisStream('sa_1')).toBe('saved-analysis-sa_1');
  });
});
