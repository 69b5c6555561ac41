import type {
  AnalysisCreatedData,
  AnalysisEvent,
  AnalysisResult,
  AnalysisStatus,
} from '@analyst/domain-analysis';
import { eventsOf, type Doc, type Projector, type RecordedEvent } from '@analyst/platform';

export const ANALYSES = 'analyses';

export interface ResultSummary {
  matchedComments: number;
  serviceScore: number | null;
}

/**
 * Tolerant of any shape, hence the optional chaining on a typed result: a projector that threw would
 * stop every later event, and an event recorded with a malformed result must not.
 */
function summaryOf(result: AnalysisResult | null | undefined): ResultSummary | null {
  const matched = result?.scope?.matchedComments;
  return typeof matched === 'number'
    ? { matchedComments: matched, serviceScore: result?.commentAnalysis?.scores?.serviceScore ?? null }
    : null;
}

/** An analysis as the list and the routes show it: what created it, and where it has got to. */
export interface AnalysisDoc
  extends
    Doc,
    Pick<
      AnalysisCreatedData,
      | 'teamId'
      | 'selection'
      | 'filters'
      | 'search'
      | 'include'
      | 'postIds'
      | 'postCount'
      | 'selectionTruncated'
    > {
  /** A report is a teammate's write-up over a campaign (`ReportSaved`), never computed here. */
  kind: AnalysisCreatedData['kind'] | 'report';
  status: AnalysisStatus;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  expiresAt: string | null;
  settings: { scoreVersion: 1 | 2 | 3; engagementWeight: number } | null;
  progress: { phase: string; percent: number } | null;
  error: { message: string } | null;
  /**
   * What the list shows of a ready analysis. The result itself (35–100 KB) stays in its
   * AnalysisCompleted event and is read from the log by id: a read model holding it made every
   * lookup slower as analyses piled up (FerretDB's SQLite backend scans a collection even for `_id`).
   */
  resultSummary: ResultSummary | null;
  /** Only in documents projected before resultSummary: the whole result. */
  result?: AnalysisResult | null;
  report: { campaignId: string; title: string; summary: string; savedBy: string | null } | null;
}

/** The analysis events the `analyses` read model folds (not the search's matched chunks). */
export type AnalysisDocEvent = Exclude<AnalysisEvent, { type: 'AnalysisSearchMatched' }>;

const ANALYSIS_DOC_EVENT_TYPES: readonly AnalysisDocEvent['type'][] = [
  'AnalysisCreated',
  'AnalysisStarted',
  'AnalysisClaimed',
  'AnalysisProgressed',
  'AnalysisCompleted',
  'AnalysisFailed',
  'ReportSaved',
];

/** Whether a stored event is one the `analyses` read model folds, typed as that event. */
export const isAnalysisDocEvent = eventsOf<AnalysisDocEvent>(ANALYSIS_DOC_EVENT_TYPES);

/** One analysis event on its document (a recorded event, or one just decided). */
function evolveAnalysisDoc(doc: AnalysisDoc | null, event: AnalysisDocEvent): AnalysisDoc {
  switch (event.type) {
    case 'AnalysisCreated': {
      const d = event.data;
      return {
        _id: d.analysisId,
        teamId: d.teamId,
        kind: d.kind,
        status: 'queued',
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        completedAt: null,
        expiresAt: d.expiresAt,
        selection: d.selection,
        filters: d.filters,
        search: d.search,
        include: d.include,
        postIds: d.postIds,
        postCount: d.postCount,
        selectionTruncated: d.selectionTruncated,
        settings: d.settings,
        progress: { phase: 'queued', percent: 0 },
        error: null,
        resultSummary: null,
        report: null,
      };
    }
    case 'AnalysisStarted':
    case 'AnalysisClaimed':
    case 'AnalysisProgressed':
      return {
        ...doc!,
        status: 'running',
        updatedAt: event.data.at,
        progress: { phase: event.data.phase, percent: 'percent' in event.data ? event.data.percent : 0 },
      };
    case 'AnalysisCompleted':
      return {
        ...doc!,
        status: 'ready',
        updatedAt: event.data.at,
        completedAt: event.data.at,
        progress: null,
        resultSummary: summaryOf(event.data.result),
      };
    case 'AnalysisFailed':
      return {
        ...doc!,
        status: 'failed',
        updatedAt: event.data.at,
        completedAt: event.data.at,
        progress: null,
        error: { message: event.data.message },
      };
    case 'ReportSaved': {
      const d = event.data;
      return {
        _id: d.analysisId,
        teamId: d.teamId,
        kind: 'report',
        status: 'ready',
        createdAt: d.at,
        updatedAt: d.at,
        completedAt: d.at,
        expiresAt: null,
        selection: { type: 'collection', collectionId: d.campaignId, status: 'complete' },
        filters: null,
        search: null,
        include: [],
        postIds: d.postIds,
        postCount: d.postIds.length,
        selectionTruncated: false,
        settings: null,
        progress: null,
        error: null,
        resultSummary: null,
        report: { campaignId: d.campaignId, title: d.title, summary: d.summary, savedBy: d.savedBy },
      };
    }
    default:
      return doc!;
  }
}

/** `analyses`: one document per analysis or report, rebuilt from the `analysis-<id>` streams. */
export const analysesProjector: Projector<AnalysisDoc, AnalysisDocEvent> = {
  name: 'analyses',
  collection: ANALYSES,
  eventTypes: ANALYSIS_DOC_EVENT_TYPES,
  // The team's list (newest first), and the worker's resume of queued and running analyses at start.
  indexes: [{ keys: { teamId: 1, createdAt: -1 } }, { keys: { status: 1, createdAt: 1 } }],
  documentIds: (event) => [event.data.analysisId],
  evolve: (doc, event) => evolveAnalysisDoc(doc, event),
};

/**
 * The `analyses` document these events build from nothing, as the projector writes it: what a
 * request that created an analysis answers with, without reading the read model back.
 */
export function foldAnalysisDoc(analysisId: string, events: readonly AnalysisEvent[]): AnalysisDoc | null {
  return events.reduce<AnalysisDoc | null>(
    (doc, event) => (event.type === 'AnalysisSearchMatched' ? doc : evolveAnalysisDoc(doc, event)),
    null,
  );
}

/**
 * The `analyses` document of an analysis as its own stream holds it, read from the log (an indexed
 * read on every event store, never behind it): the stream's events narrowed to those the read
 * model folds, then folded as the projector does. Null when the stream has no analysis.
 */
export function analysisDocOfStream(
  analysisId: string,
  stream: readonly RecordedEvent[],
): AnalysisDoc | null {
  return foldAnalysisDoc(analysisId, stream.filter(isAnalysisDocEvent));
}
