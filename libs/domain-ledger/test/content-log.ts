import type { LedgerRecord } from '@analyst/domain-ledger';

/** The reservation id ingest derives for a job's link: `rs_<jobId>_<16 hex>`. */
export const rid = (jobId: string, n: number): string => `rs_${jobId}_${n.toString(16).padStart(16, '0')}`;

const MINUTE = 60_000;

/**
 * Plants an event log the way ingest and the ledger write it (post, content job and ledger streams
 * interleaved in one global order), with a clock the test moves. Only the fields the audit reads
 * need to be right, but every event carries its full shape.
 */
export class ContentLog {
  readonly records: LedgerRecord[] = [];
  private readonly revisions = new Map<string, number>();
  private readonly reservations = new Map<string, { amount: number; team: string }>();
  private clock: number;

  constructor(start = '2026-03-10T12:00:00.000Z') {
    this.clock = Date.parse(start);
  }

  get now(): string {
    return new Date(this.clock).toISOString();
  }

  advance(minutes: number): this {
    this.clock += minutes * MINUTE;
    return this;
  }

  /** The id of the next event appended (ev_<position>). */
  get nextId(): string {
    return `ev_${this.records.length + 1}`;
  }

  private append(streamId: string, type: string, data: Record<string, unknown>): LedgerRecord {
    const revision = (this.revisions.get(streamId) ?? -1) + 1;
    this.revisions.set(streamId, revision);
    const record: LedgerRecord = {
      id: this.nextId,
      streamId,
      revision,
      position: this.records.length + 1,
      type,
      data,
      metadata: { occurredAt: this.now },
    };
    this.records.push(record);
    return record;
  }

  job(jobId: string, teamId: string): this {
    this.append(`contentjob-${jobId}`, 'ContentJobOpened', {
      jobId,
      teamId,
      kind: 'posts',
      createdAt: this.now,
      requested: 1,
    });
    return this;
  }

  reserve(teamId: string, reservationId: string, unitCost = 1): this {
    this.reservations.set(reservationId, { amount: unitCost, team: teamId });
    this.append(`ledger-${teamId}`, 'CreditsReserved', {
      commandId: `reserve-${reservationId}`,
      month: '2026-03',
      reservationId,
      source: 'auto',
      requestedUnits: 1,
      fundedUnits: 1,
      unitCost,
      amount: unitCost,
      fromMaps: unitCost,
      fromAdhoc: 0,
    });
    return this;
  }

  settle(teamId: string, reservationId: string, commandId = `settle-${this.records.length + 1}`): this {
    const amount = this.reservations.get(reservationId)?.amount ?? 1;
    this.append(`ledger-${teamId}`, 'CreditsSettled', {
      commandId,
      month: '2026-03',
      reservationId,
      consumedUnits: 1,
      charged: { maps: amount, adhoc: 0 },
      returned: { maps: 0, adhoc: 0 },
      expiredOnReturn: 0,
    });
    return this;
  }

  refund(teamId: string, reservationId: string, reason: string): this {
    const amount = this.reservations.get(reservationId)?.amount ?? 1;
    this.append(`ledger-${teamId}`, 'CreditsRefunded', {
      commandId: `refund-${this.records.length + 1}`,
      month: '2026-03',
      reservationId,
      reason,
      returned: { maps: amount, adhoc: 0 },
      expiredOnReturn: 0,
    });
    return this;
  }

  created(
    postId: string,
    teamId: string,
    link: string,
    jobId: string,
    reservationId: string | null,
    dataVersion = 1,
  ): this {
    this.append(`post-${postId}`, 'PostCreated', {
      postId,
      teamId,
      link,
      normalizedLink: link.replace(/^https?:\/\/(www\.)?/, ''),
      platform: 'youtube',
      collectionIds: [],
      tags: [],
      addedVia: 'api',
      addedBy: { id: 'key_1', name: 'ci' },
      isDemo: false,
      dataVersion,
      jobId,
      reservationId,
      creditSource: reservationId ? 'credit' : 'included',
      unitCost: 1,
      fullRead: false,
      commentLimit: null,
      requestedAt: this.now,
    });
    return this;
  }

  refreshed(postId: string, dataVersion: number, jobId: string, reservationId: string | null): this {
    this.append(`post-${postId}`, 'PostRefreshRequested', {
      postId,
      dataVersion,
      jobId,
      reservationId,
      creditSource: reservationId ? 'credit' : 'included',
      unitCost: 1,
      fullRead: false,
      commentLimit: null,
      requestedAt: this.now,
    });
    return this;
  }

  /** Fetched, its comments stored, then scored: the full successful path of a version. */
  scored(
    postId: string,
    dataVersion: number,
    jobId: string,
    reservationId: string | null,
    totalComments: number,
  ): this {
    this.append(`post-${postId}`, 'PostFetched', {
      postId,
      dataVersion,
      post: {},
      totalComments,
      chunks: totalComments ? 1 : 0,
      at: this.now,
    });
    if (totalComments)
      this.append(`post-${postId}`, 'CommentsFetched', { postId, dataVersion, chunk: 0, comments: [] });
    this.append(`post-${postId}`, 'PostScored', {
      postId,
      dataVersion,
      jobId,
      reservationId,
      scorer: { name: 'vader', version: '1' },
      topics: [],
      messages: [],
      totalComments,
      at: this.now,
    });
    return this;
  }

  failed(
    postId: string,
    dataVersion: number,
    jobId: string,
    reservationId: string | null,
    outcome: 'failed' | 'unreachable' | 'holding',
  ): this {
    this.append(`post-${postId}`, 'PostFetchFailed', {
      postId,
      dataVersion,
      jobId,
      reservationId,
      outcome,
      reason: 'provider said no',
      at: this.now,
    });
    return this;
  }

  resumed(postId: string, dataVersion: number, jobId: string, reservationId: string | null): this {
    this.append(`post-${postId}`, 'PostHoldResumed', {
      postId,
      dataVersion,
      jobId,
      reservationId,
      at: this.now,
    });
    return this;
  }

  cancelled(postId: string, dataVersion: number, jobId: string, reservationId: string | null): this {
    this.append(`post-${postId}`, 'PostCancelled', {
      postId,
      dataVersion,
      jobId,
      reservationId,
      reason: 'cancelled by the client',
      at: this.now,
    });
    return this;
  }

  /** The record at a global position (1-based), for asserting the ids a finding names. */
  at(position: number): LedgerRecord {
    return this.records[position - 1];
  }

  /** Positions of the events of one type and reservation, in log order. */
  positions(type: string, reservationId: string): number[] {
    return this.records
      .filter(
        (r) => r.type === type && (r.data as { reservationId?: string }).reservationId === reservationId,
      )
      .map((r) => r.position);
  }
}
