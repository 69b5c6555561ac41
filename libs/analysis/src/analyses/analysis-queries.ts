import { Inject, Injectable } from '@nestjs/common';
import { analysisStream, type AnalysisEvent } from '@analyst/domain-analysis';
import { eventsOf } from '@analyst/eventsourcing';
import {
  CLOCK,
  EVENT_STORE,
  ProjectionService,
  READ_STORE,
  type Clock,
  type EventStore,
  type ReadStore,
} from '@analyst/platform';
import { ANALYSES, foldAnalysisDoc, isAnalysisDocEvent, type AnalysisDoc } from '@analyst/analyses-read';
import { type AnalysisResult } from '@analyst/comment-index';

const isCompleted = eventsOf<Extract<AnalysisEvent, { type: 'AnalysisCompleted' }>>(['AnalysisCompleted']);

/** Reads analyses back: one from its own stream, the team's list from the `analyses` read model. */
@Injectable()
export class AnalysisQueries {
  constructor(
    private readonly projections: ProjectionService,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  /**
   * One analysis of the team with its result (when ready), both from its own stream: the event
   * store reads a stream by id through an index on every store, where a lookup in the `analyses`
   * read model scans the collection on FerretDB's SQLite backend. Null when unknown, another
   * team's, or expired.
   */
  async findWithResult(
    teamId: string,
    analysisId: string,
  ): Promise<{ doc: AnalysisDoc; result: AnalysisResult | null } | null> {
    const events = (await this.events.readStream(analysisStream(analysisId))).filter(isAnalysisDocEvent);
    const doc = this.visible(teamId, foldAnalysisDoc(analysisId, events));
    if (!doc) return null;
    const completed = doc.status === 'ready' && doc.kind !== 'report' ? events.find(isCompleted) : undefined;
    return { doc, result: completed ? completed.data.result : null };
  }

  /** One analysis of the team; null when unknown, another team's, or expired. */
  async find(teamId: string, analysisId: string): Promise<AnalysisDoc | null> {
    return (await this.findWithResult(teamId, analysisId))?.doc ?? null;
  }

  private visible(teamId: string, doc: AnalysisDoc | null): AnalysisDoc | null {
    if (!doc || doc.teamId !== teamId) return null;
    if (doc.expiresAt && Date.parse(doc.expiresAt) <= this.clock.now().getTime()) return null;
    return doc;
  }

  /** The team's analyses, newest first, as of every event of the team stored before the call. */
  async list(teamId: string, kind: string, limit: number): Promise<AnalysisDoc[]> {
    await this.projections.waitFor(await this.events.teamHeadPosition(teamId));
    const now = this.clock.now().toISOString();
    const filter: Record<string, unknown> = {
      teamId,
      $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
    };
    if (kind !== 'all') filter.kind = kind;
    return this.store
      .collection<AnalysisDoc>(ANALYSES)
      .find(filter, { sort: { createdAt: -1, _id: -1 }, limit });
  }
}
