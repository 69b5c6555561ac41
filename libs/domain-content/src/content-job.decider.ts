import type { Command, Decider } from '@analyst/eventsourcing';
import type { JobStatus, PostType, RejectReason, SkipReason, PostStatus } from '@analyst/contracts';
import { ContentError } from './content-errors';
import type { JobRequest } from './job-request';

// The vocabulary clients see lives in contracts; re-exported so the domain's users keep one import.
export {
  JOB_KINDS,
  JOB_STATUSES,
  REJECT_REASONS,
  SKIP_REASONS,
  type JobKind,
  type JobStatus,
  type RejectReason,
  type SkipReason,
} from '@analyst/contracts';
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['completed', 'partial', 'failed'];
export const JOB_POLL_AFTER_MS = 5000;
export const MIN_REFRESH_INTERVAL_HOURS = 12;

export interface AcceptedEntry {
  link: string;
  postId: string;
  postStatus: PostStatus;
  /** `included` only on refresh jobs inside the plan's cadence. */
  creditSource: 'credit' | 'included';
  creditCost: number;
  dataVersion: number;
}
export interface SkippedEntry {
  link: string;
  reason: SkipReason;
  postId?: string;
  nextRefreshAt?: string;
}
export interface RejectedEntry {
  link: string;
  reason: RejectReason;
}
export interface DiscoveredEntry {
  link: string;
  postedAt: string;
  postType: PostType;
  engagement: { views: number; likes: number };
}
export interface JobError {
  code: string;
  message: string;
}
/** A member post's outcome for the data version this job asked for. */
export interface JobOutcome {
  status: PostStatus;
  charged: boolean;
}

export interface ContentJobOpened {
  type: 'ContentJobOpened';
  data: JobRequest;
}
export interface AccountDiscovered {
  type: 'AccountDiscovered';
  data: { count: number; discovered: DiscoveredEntry[] | null; estimated: number | null; at: string };
}
export interface ContentJobQueued {
  type: 'ContentJobQueued';
  data: { accepted: AcceptedEntry[]; skipped: SkippedEntry[]; rejected: RejectedEntry[]; at: string };
}
export interface ContentJobFailed {
  type: 'ContentJobFailed';
  data: { error: JobError; at: string };
}
export interface JobPostOutcomeRecorded {
  type: 'JobPostOutcomeRecorded';
  data: { postId: string; status: PostStatus; charged: boolean; at: string };
}
export interface JobSettled {
  type: 'JobSettled';
  data: { status: 'completed' | 'partial' | 'failed'; error: JobError | null; at: string };
}
export type ContentJobEvent =
  | ContentJobOpened
  | AccountDiscovered
  | ContentJobQueued
  | ContentJobFailed
  | JobPostOutcomeRecorded
  | JobSettled;
export type ContentJobEventType = ContentJobEvent['type'];
const JOB_EVENT_TYPE_MAP: { [K in ContentJobEventType]: true } = {
  ContentJobOpened: true,
  AccountDiscovered: true,
  ContentJobQueued: true,
  ContentJobFailed: true,
  JobPostOutcomeRecorded: true,
  JobSettled: true,
};
export const CONTENT_JOB_EVENT_TYPES = Object.keys(JOB_EVENT_TYPE_MAP) as ContentJobEventType[];

export const contentJobStream = (jobId: string): string => `contentjob-${jobId}`;

/** A job: its request and how far it got. */
export interface ContentJobProgress {
  status: JobStatus;
  updatedAt: string;
  completedAt: string | null;
  accepted: AcceptedEntry[];
  skipped: SkippedEntry[];
  rejected: RejectedEntry[];
  discovered: DiscoveredEntry[] | null;
  discoveredCount: number | null;
  estimated: number | null;
  outcomes: Record<string, JobOutcome>;
  error: JobError | null;
}
export type ContentJob = JobRequest & ContentJobProgress;
export type ContentJobState = { status: 'absent' } | ContentJob;

/** Post statuses a job counts as its last word on that post. */
export const FINAL_POST_OUTCOMES: readonly PostStatus[] = ['complete', 'failed', 'unreachable', 'cancelled'];

export type ContentJobCommand =
  | Command<'OpenJob', JobRequest>
  | Command<'RecordDiscovery', { discovered: DiscoveredEntry[]; at: string }>
  | Command<
      'QueueJob',
      { accepted: AcceptedEntry[]; skipped: SkippedEntry[]; rejected: RejectedEntry[]; at: string }
    >
  | Command<'FailJob', { error: JobError; at: string }>
  | Command<'RecordPostOutcomes', { outcomes: ({ postId: string } & JobOutcome)[]; at: string }>;

export function isTerminalJob(status: JobStatus): boolean {
  return TERMINAL_JOB_STATUSES.includes(status);
}

function requireJob(state: ContentJobState): ContentJob {
  if (state.status === 'absent') throw new ContentError('job_not_found', 'content job not found');
  return state;
}

/** completed: every requested link was added and processed; failed: nothing was; partial: in between. */
export function settledStatus(
  job: ContentJob,
  outcomes: Record<string, JobOutcome>,
): JobSettled['data'] | null {
  const finals = job.accepted.map((a) => outcomes[a.postId]);
  if (finals.some((o) => !o || !FINAL_POST_OUTCOMES.includes(o.status))) return null;
  const complete = finals.filter((o) => o.status === 'complete').length;
  if (complete === 0) {
    const unfunded = job.rejected.some((r) => r.reason === 'insufficient_credits');
    const error: JobError =
      job.accepted.length > 0
        ? { code: 'processing_failed', message: 'no post could be processed' }
        : unfunded
          ? { code: 'insufficient_credits', message: 'no post could be funded' }
          : { code: 'nothing_added', message: 'nothing was added: every link was skipped or rejected' };
    return { status: 'failed', error, at: '' };
  }
  const clean = complete === job.accepted.length && job.skipped.length === 0 && job.rejected.length === 0;
  return { status: clean ? 'completed' : 'partial', error: null, at: '' };
}

type JobCommand<T extends ContentJobCommand['type']> = Extract<ContentJobCommand, { type: T }>;

function openJob(command: JobCommand<'OpenJob'>, state: ContentJobState): ContentJobEvent[] {
  if (state.status !== 'absent')
    throw new ContentError('job_exists', `content job ${command.data.jobId} already exists`);
  return [{ type: 'ContentJobOpened', data: command.data }];
}

function recordDiscovery(command: JobCommand<'RecordDiscovery'>, state: ContentJobState): ContentJobEvent[] {
  const job = requireJob(state);
  if (job.status !== 'discovering' || job.discoveredCount !== null) return [];
  const count = command.data.discovered.length;
  const estimated = job.dryRun ? count * job.credits.perPost : null;
  const events: ContentJobEvent[] = [
    {
      type: 'AccountDiscovered',
      data: {
        count,
        discovered: job.dryRun ? command.data.discovered : null,
        estimated,
        at: command.data.at,
      },
    },
  ];
  if (job.dryRun || count === 0)
    events.push({ type: 'JobSettled', data: { status: 'completed', error: null, at: command.data.at } });
  return events;
}

function queueJob(command: JobCommand<'QueueJob'>, state: ContentJobState): ContentJobEvent[] {
  const job = requireJob(state);
  if (job.status !== 'queuing' && job.status !== 'discovering') return [];
  const queued: ContentJobQueued = {
    type: 'ContentJobQueued',
    data: {
      accepted: command.data.accepted,
      skipped: command.data.skipped,
      rejected: command.data.rejected,
      at: command.data.at,
    },
  };
  // Posts may have finished while the request was still creating the rest of the batch. A job
  // with nothing accepted is answered `syncing` (the spec's creation row) and settles right
  // after, through RecordPostOutcomes with no outcomes (see settleIfNothingAccepted).
  if (command.data.accepted.length === 0) return [queued];
  const settled = settledStatus(
    {
      ...job,
      accepted: command.data.accepted,
      skipped: command.data.skipped,
      rejected: command.data.rejected,
    },
    job.outcomes,
  );
  return settled ? [queued, { type: 'JobSettled', data: { ...settled, at: command.data.at } }] : [queued];
}

function failJob(command: JobCommand<'FailJob'>, state: ContentJobState): ContentJobEvent[] {
  const job = requireJob(state);
  if (job.status !== 'discovering' && job.status !== 'queuing') return [];
  return [{ type: 'ContentJobFailed', data: { error: command.data.error, at: command.data.at } }];
}

function recordPostOutcomes(
  command: JobCommand<'RecordPostOutcomes'>,
  state: ContentJobState,
): ContentJobEvent[] {
  const job = requireJob(state);
  if (isTerminalJob(job.status)) return []; // a terminal job never reopens
  // Before the job is queued its members are not known yet: keep every outcome, settle later.
  const queued = job.status === 'syncing';
  const members = new Set(job.accepted.map((a) => a.postId));
  const outcomes = { ...job.outcomes };
  const events: ContentJobEvent[] = [];
  for (const o of command.data.outcomes) {
    if (queued && !members.has(o.postId)) continue;
    const known = outcomes[o.postId];
    if (known && (FINAL_POST_OUTCOMES.includes(known.status) || known.status === o.status)) continue;
    if (!FINAL_POST_OUTCOMES.includes(o.status) && o.status !== 'holding') continue;
    // A held post's credit was returned when it was held; the resumed fetch reserved again, so
    // what it finally charges is its own outcome's.
    const charged = o.charged;
    outcomes[o.postId] = { status: o.status, charged };
    events.push({
      type: 'JobPostOutcomeRecorded',
      data: { postId: o.postId, status: o.status, charged, at: command.data.at },
    });
  }
  const settled = queued ? settledStatus(job, outcomes) : null;
  if (settled) events.push({ type: 'JobSettled', data: { ...settled, at: command.data.at } });
  return events;
}

export function decideContentJob(command: ContentJobCommand, state: ContentJobState): ContentJobEvent[] {
  switch (command.type) {
    case 'OpenJob':
      return openJob(command, state);
    case 'RecordDiscovery':
      return recordDiscovery(command, state);
    case 'QueueJob':
      return queueJob(command, state);
    case 'FailJob':
      return failJob(command, state);
    case 'RecordPostOutcomes':
      return recordPostOutcomes(command, state);
    default: {
      const _never: never = command;
      return _never;
    }
  }
}

export function evolveContentJob(state: ContentJobState, event: ContentJobEvent): ContentJobState {
  if (event.type === 'ContentJobOpened') {
    const r = event.data;
    return {
      ...r,
      status: r.kind === 'account' ? 'discovering' : 'queuing',
      updatedAt: r.createdAt,
      completedAt: null,
      accepted: [],
      skipped: [],
      rejected: [],
      discovered: null,
      discoveredCount: null,
      estimated: null,
      outcomes: {},
      error: null,
    };
  }
  const job = requireJob(state);
  switch (event.type) {
    case 'AccountDiscovered':
      return {
        ...job,
        discoveredCount: event.data.count,
        discovered: event.data.discovered,
        estimated: event.data.estimated,
        updatedAt: event.data.at,
      };
    case 'ContentJobQueued':
      return {
        ...job,
        status: 'syncing',
        accepted: event.data.accepted,
        skipped: event.data.skipped,
        rejected: event.data.rejected,
        updatedAt: event.data.at,
      };
    case 'ContentJobFailed':
      return {
        ...job,
        status: 'failed',
        error: event.data.error,
        updatedAt: event.data.at,
        completedAt: event.data.at,
      };
    case 'JobPostOutcomeRecorded': {
      const { postId, status, charged } = event.data;
      return {
        ...job,
        outcomes: { ...job.outcomes, [postId]: { status, charged } },
        updatedAt: event.data.at,
      };
    }
    case 'JobSettled':
      return {
        ...job,
        status: event.data.status,
        error: event.data.error,
        updatedAt: event.data.at,
        completedAt: event.data.at,
      };
    default: {
      const _never: never = event;
      return _never;
    }
  }
}

export const contentJobDecider: Decider<ContentJobCommand, ContentJobEvent, ContentJobState> = {
  initialState: (): ContentJobState => ({ status: 'absent' }),
  decide: decideContentJob,
  evolve: evolveContentJob,
};
