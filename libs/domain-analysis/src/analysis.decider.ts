/**
 * The analysis aggregate (stream `analysis-<id>`): queued → running → ready | failed, or created
 * ready in one step when computed inline. Results travel in the completing event, so the read model
 * can be rebuilt from the log; an AI search also records which comments matched, so a sample of it
 * returns exactly those comments without asking the search model again. Time comes in with each
 * command.
 */
export type AnalysisKind = 'snapshot' | 'search' | 'report';

/** Comment ids per `AnalysisSearchMatched` event: an AI search's matches are on record in chunks. */
export const SEARCH_MATCH_CHUNK = 5000;
export type AnalysisStatus = 'queued' | 'running' | 'ready' | 'failed';

/** What created an analysis: the request as read (see analysis-request.ts) and what it resolved to. */
export interface AnalysisCreatedData {
  analysisId: string;
  teamId: string;
  kind: 'snapshot' | 'search';
  selection: AnalysisSelection;
  filters: CommentFilters | null;
  search: SearchSpec | null;
  include: string[];
  postIds: string[];
  postCount: number;
  selectionTruncated: boolean;
  settings: { scoreVersion: 1 | 2 | 3; engagementWeight: number };
  createdAt: string;
  expiresAt: string;
}

export type AnalysisEvent =
  | { type: 'AnalysisCreated'; data: AnalysisCreatedData }
  | { type: 'AnalysisStarted'; data: { analysisId: string; phase: string; percent: number; at: string } }
  /** A worker took the job: the first, or another after the one before it went quiet (attempt 2, 3, …). */
  | {
      type: 'AnalysisClaimed';
      data: { analysisId: string; worker: string; attempt: number; phase: string; at: string };
    }
  | { type: 'AnalysisProgressed'; data: { analysisId: string; phase: string; percent: number; at: string } }
  | {
      type: 'AnalysisSearchMatched';
      data: { analysisId: string; chunk: number; chunks: number; commentIds: string[]; at: string };
    }
  | { type: 'AnalysisCompleted'; data: { analysisId: string; result: AnalysisResult; at: string } }
  | { type: 'AnalysisFailed'; data: { analysisId: string; message: string; at: string } }
  | {
      type: 'ReportSaved';
      data: {
        analysisId: string;
        teamId: string;
        campaignId: string;
        title: string;
        summary: string;
        postIds: string[];
        savedBy: string | null;
        at: string;
        expiresAt: null;
      };
    };

export type AnalysisCommand =
  /** With a result, the analysis was computed inline: created and completed in one step. */
  | Command<'CreateAnalysis', AnalysisCreatedData & { result?: AnalysisResult }>
  | Command<'StartAnalysis', { phase: string; at: string }>
  /**
   * A worker asks for the job: granted when it is queued, or running with no event since
   * `staleBefore` (its worker stopped); past `maxAttempts` claims the job fails instead.
   */
  | Command<
      'ClaimAnalysis',
      { worker: string; phase: string; at: string; staleBefore: string; maxAttempts: number }
    >
  | Command<'ReportProgress', { phase: string; percent: number; at: string }>
  | Command<'RecordSearchMatches', { commentIds: readonly string[]; at: string }>
  | Command<'CompleteAnalysis', { result: AnalysisResult; at: string }>
  | Command<'FailAnalysis', { message: string; at: string }>
  | Command<'SaveReport', Extract<AnalysisEvent, { type: 'ReportSaved' }>['data']>;

export type AnalysisState =
  | { status: 'absent' }
  | {
      status: AnalysisStatus | 'saved';
      analysisId: string;
      kind: AnalysisKind;
      /** Workers that have taken the job so far. */
      attempts?: number;
      /** Time of the stream's last event: a running job quiet since long ago has lost its worker. */
      lastActivityAt?: string;
    };

export class AnalysisRuleError extends Error {
  override readonly name = 'AnalysisRuleError';
  constructor(
    readonly code: 'analysis_exists' | 'analysis_not_found' | 'invalid_transition',
    message: string,
  ) {
    super(message);
  }
}

function existing(state: AnalysisState): Exclude<AnalysisState, { status: 'absent' }> {
  if (state.status === 'absent') throw new AnalysisRuleError('analysis_not_found', 'analysis not found');
  return state;
}

export function decideAnalysis(command: AnalysisCommand, state: AnalysisState): AnalysisEvent[] {
  switch (command.type) {
    case 'CreateAnalysis':
      return create(command.data, state);
    case 'StartAnalysis': {
      const s = existing(state);
      if (s.status !== 'queued') return []; // a second worker, or a redelivery: already started
      return [
        {
          type: 'AnalysisStarted',
          data: { analysisId: s.analysisId, phase: command.data.phase, percent: 0, at: command.data.at },
        },
      ];
    }
    case 'ClaimAnalysis':
      return claim(command.data, existing(state));
    case 'ReportProgress': {
      const s = existing(state);
      if (s.status !== 'running')
        throw new AnalysisRuleError('invalid_transition', `analysis is ${s.status}, not running`);
      return [
        {
          type: 'AnalysisProgressed',
          data: {
            analysisId: s.analysisId,
            phase: command.data.phase,
            percent: command.data.percent,
            at: command.data.at,
          },
        },
      ];
    }
    case 'RecordSearchMatches':
      return searchMatched(command.data, existing(state));
    case 'CompleteAnalysis': {
      const s = existing(state);
      if (s.status !== 'running')
        throw new AnalysisRuleError('invalid_transition', `analysis is ${s.status}, not running`);
      return [
        {
          type: 'AnalysisCompleted',
          data: { analysisId: s.analysisId, result: command.data.result, at: command.data.at },
        },
      ];
    }
    case 'FailAnalysis': {
      const s = existing(state);
      if (s.status !== 'queued' && s.status !== 'running') return [];
      return [
        {
          type: 'AnalysisFailed',
          data: { analysisId: s.analysisId, message: command.data.message, at: command.data.at },
        },
      ];
    }
    case 'SaveReport': {
      if (state.status !== 'absent')
        throw new AnalysisRuleError('analysis_exists', `analysis ${command.data.analysisId} exists`);
      return [{ type: 'ReportSaved', data: command.data }];
    }
    default: {
      const _never: never = command;
      return _never;
    }
  }
}

function create(
  data: Extract<AnalysisCommand, { type: 'CreateAnalysis' }>['data'],
  state: AnalysisState,
): AnalysisEvent[] {
  if (state.status !== 'absent')
    throw new AnalysisRuleError('analysis_exists', `analysis ${data.analysisId} exists`);
  const { result, ...createdData } = data;
  const created: AnalysisEvent = { type: 'AnalysisCreated', data: createdData };
  if (result === undefined) return [created];
  return [
    created,
    {
      type: 'AnalysisCompleted',
      data: { analysisId: createdData.analysisId, result, at: createdData.createdAt },
    },
  ];
}

/** An AI search's matches, in chunks of SEARCH_MATCH_CHUNK comment ids. */
function searchMatched(
  data: Extract<AnalysisCommand, { type: 'RecordSearchMatches' }>['data'],
  s: Exclude<AnalysisState, { status: 'absent' }>,
): AnalysisEvent[] {
  if (s.status !== 'running' || s.kind !== 'search')
    throw new AnalysisRuleError(
      'invalid_transition',
      `analysis is a ${s.status} ${s.kind}, not a running search`,
    );
  // Always at least one event, so "no matches" is on record too (and tells it from "not recorded").
  const chunks = Math.max(1, Math.ceil(data.commentIds.length / SEARCH_MATCH_CHUNK));
  return Array.from({ length: chunks }, (_, chunk) => ({
    type: 'AnalysisSearchMatched' as const,
    data: {
      analysisId: s.analysisId,
      chunk,
      chunks,
      commentIds: data.commentIds.slice(chunk * SEARCH_MATCH_CHUNK, (chunk + 1) * SEARCH_MATCH_CHUNK),
      at: data.at,
    },
  }));
}

function claim(
  data: Extract<AnalysisCommand, { type: 'ClaimAnalysis' }>['data'],
  s: Exclude<AnalysisState, { status: 'absent' }>,
): AnalysisEvent[] {
  const attempts = s.attempts ?? (s.status === 'running' ? 1 : 0);
  const stale = s.status === 'running' && (s.lastActivityAt ?? '') <= data.staleBefore;
  if (s.status !== 'queued' && !stale) return []; // taken by a live worker, or finished
  if (attempts >= data.maxAttempts) {
    const message =
      `analysis failed: the worker running it stopped ${attempts} time(s) before finishing ` +
      `(last heard of at ${s.lastActivityAt}); create it again, with fewer posts if it keeps failing`;
    return [{ type: 'AnalysisFailed', data: { analysisId: s.analysisId, message, at: data.at } }];
  }
  return [
    {
      type: 'AnalysisClaimed',
      data: {
        analysisId: s.analysisId,
        worker: data.worker,
        attempt: attempts + 1,
        phase: data.phase,
        at: data.at,
      },
    },
  ];
}

export function evolveAnalysis(state: AnalysisState, event: AnalysisEvent): AnalysisState {
  const at = 'at' in event.data ? event.data.at : undefined;
  switch (event.type) {
    case 'AnalysisCreated':
      return {
        status: 'queued',
        analysisId: event.data.analysisId,
        kind: event.data.kind,
        attempts: 0,
        lastActivityAt: event.data.createdAt,
      };
    case 'AnalysisStarted': {
      const s = existing(state);
      return { ...s, status: 'running', attempts: (s.attempts ?? 0) + 1, lastActivityAt: at };
    }
    case 'AnalysisClaimed':
      return { ...existing(state), status: 'running', attempts: event.data.attempt, lastActivityAt: at };
    case 'AnalysisProgressed':
      return { ...existing(state), status: 'running', lastActivityAt: at };
    case 'AnalysisSearchMatched':
      return { ...existing(state), lastActivityAt: at };
    case 'AnalysisCompleted':
      return { ...existing(state), status: 'ready' };
    case 'AnalysisFailed':
      return { ...existing(state), status: 'failed' };
    case 'ReportSaved':
      return { status: 'saved', analysisId: event.data.analysisId, kind: 'report' };
    default: {
      const _never: never = event;
      return _never;
    }
  }
}

export const analysisDecider: Decider<AnalysisCommand, AnalysisEvent, AnalysisState> = {
  initialState: (): AnalysisState => ({ status: 'absent' }),
  decide: decideAnalysis,
  evolve: evolveAnalysis,
};

export const analysisStream = (analysisId: string): string => `analysis-${analysisId}`;
export const ANALYSIS_RETENTION_MS = 7 * 24 * 3600 * 1000;
import type { Command, Decider } from '@analyst/eventsourcing';
import type { AnalysisResult } from './analysis-result';
import type { AnalysisSelection, CommentFilters, SearchSpec } from './analysis-request';
