import type { Decider } from '@analyst/eventsourcing';

/** What a teammate saved or shared in the app, as the app backend sends it. */
export interface SavedAnalysisData {
  savedId: string;
  teamId: string;
  name: string;
  kind: string;
  analysisId: string | null;
  savedBy: string | null;
  /** The app's own insights, kept for GET /insights. */
  payload: unknown;
  shareToken: string | null;
  inviteEmails: string[];
  at: string;
}

export interface SaveAnalysisInApp {
  type: 'SaveAnalysisInApp';
  data: SavedAnalysisData;
}

export interface AnalysisSavedInApp {
  type: 'AnalysisSavedInApp';
  data: SavedAnalysisData;
}

export interface SavedAnalysisState {
  saved: boolean;
}

/**
 * A saved analysis (stream `saved-analysis-<id>`) is written once: saving it again, a retried
 * command, appends nothing.
 */
export const savedAnalysisDecider: Decider<SaveAnalysisInApp, AnalysisSavedInApp, SavedAnalysisState> = {
  initialState: () => ({ saved: false }),
  decide: (command, state) => (state.saved ? [] : [{ type: 'AnalysisSavedInApp', data: command.data }]),
  evolve: () => ({ saved: true }),
};

export const savedAnalysisStream = (savedId: string): string => `saved-analysis-${savedId}`;
