import { relativePathOf } from '@analyst/platform';
import { withEmotions } from '@analyst/domain-analysis';
import type { AnalysisDoc } from '@analyst/analyses-read';
import type { AnalysisResult } from '@analyst/comment-index';

/** How long a client waits before polling an open analysis again (Retry-After is its seconds). */
export const POLL_AFTER_MS = 3000;
export const RETRY_AFTER_SECONDS = String(Math.ceil(POLL_AFTER_MS / 1000));

const open = (doc: AnalysisDoc): boolean => doc.status === 'queued' || doc.status === 'running';

/** The Analysis resource: every field of the spec's table, the optional ones only in their states. */
/** `teamQuery`: `?teamId=…` when a parent team's key reads a sub-team's analysis (see teamQueryOf). */
/** `result`: the ready analysis's payload, from its AnalysisCompleted event (null in any other state). */
export function analysisView(
  doc: AnalysisDoc,
  result: AnalysisResult | null,
  teamQuery = '',
): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: doc._id,
    kind: doc.kind,
    status: doc.status,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    completedAt: doc.completedAt,
    expiresAt: doc.expiresAt,
    selection: doc.selection,
    filters: doc.filters ?? null,
    search: doc.search ?? null,
    include: doc.include,
    postCount: doc.postCount,
    postIds: doc.postIds,
    selectionTruncated: doc.selectionTruncated,
  };
  if (open(doc)) {
    view.progress = doc.progress ?? { phase: 'queued', percent: 0 };
    view.pollAfterMs = POLL_AFTER_MS;
  }
  if (doc.status === 'failed') view.error = doc.error;
  view.scope = result?.scope ?? null;
  view.content = result?.content ?? null;
  view.commentAnalysis = result ? withEmotions(result.commentAnalysis) : null;
  view.comments = { path: `${relativePathOf('analyses', doc._id, 'comments')}${teamQuery}` };
  view.computedAt = doc.status === 'ready' ? doc.completedAt : null;
  return view;
}

export function analysisMeta(doc: AnalysisDoc): Record<string, unknown> {
  return open(doc) ? { status: doc.status, pollAfterMs: POLL_AFTER_MS } : { status: doc.status };
}

/** A list row: no result payloads (those are on GET /analyses/{id}). */
export function analysisSummary(doc: AnalysisDoc): Record<string, unknown> {
  const legacy = doc.result;
  const summary =
    doc.resultSummary ??
    (legacy
      ? {
          matchedComments: legacy.scope.matchedComments,
          serviceScore: legacy.commentAnalysis.scores.serviceScore,
        }
      : null);
  return {
    id: doc._id,
    kind: doc.kind,
    status: doc.status,
    createdAt: doc.createdAt,
    completedAt: doc.completedAt,
    expiresAt: doc.expiresAt,
    postCount: doc.postCount,
    selection: doc.selection,
    ...(doc.report
      ? {
          title: doc.report.title,
          summary: doc.report.summary,
          campaignId: doc.report.campaignId,
          savedBy: doc.report.savedBy,
        }
      : {}),
    ...(summary ? { matchedComments: summary.matchedComments, serviceScore: summary.serviceScore } : {}),
  };
}
