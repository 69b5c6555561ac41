import type { AnalysisSavedInApp } from '@analyst/domain-analysis';
import type { Doc, Projector } from '@analyst/platform';

export const SAVED_ANALYSES = 'saved_analyses';

export interface SavedAnalysisDoc extends Doc {
  teamId: string;
  name: string;
  kind: string;
  analysisId: string | null;
  savedBy: string | null;
  createdAt: string;
  /** Kept for GET /insights; never in the list. */
  payload: unknown;
  shareToken: string | null;
  inviteEmails: string[];
}

/** `saved_analyses`: what teammates saved or shared in the app (stream `saved-analysis-<id>`). */
export const savedAnalysesProjector: Projector<SavedAnalysisDoc, AnalysisSavedInApp> = {
  name: 'saved-analyses',
  collection: SAVED_ANALYSES,
  eventTypes: ['AnalysisSavedInApp'],
  indexes: [{ keys: { teamId: 1, createdAt: -1 } }], // the team's list, newest first
  documentIds: (event) => [event.data.savedId],
  evolve(_doc, event) {
    const { savedId, at, ...rest } = event.data;
    return { _id: savedId, createdAt: at, ...rest } as SavedAnalysisDoc;
  },
};
