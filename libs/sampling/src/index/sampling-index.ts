import type { FetchedComment, ScoredComment } from '@analyst/contracts';
import type { CommentsFetched, CommentsScored } from '@analyst/domain-content';
import {
  analysesProjector,
  applyToIndex,
  CommentIndex,
  INDEX_EVENT_TYPES,
  type AnalysisDoc,
  type CompactionPolicy,
  type TeamIndex,
} from '@analyst/comment-index';
import { eventsOf, projects, type RecordedEvent } from '@analyst/platform';

/**
 * What a sample row needs beyond the analysis index's numeric columns, by the same row numbers:
 * the author as written, the original `postedAt`, the creator topic and message a comment engages
 * (the analysis index does not keep them) and a hash of the comment id for the seeded order.
 */
export class RowDetails {
  authors: string[] = [];
  postedAt: string[] = [];
  /** The scorer's language of each comment (null: undetermined or scored before languages were). */
  languages: (string | null)[] = [];
  topicIndex = new Int32Array(1024).fill(-1);
  messageIndex = new Int32Array(1024).fill(-1);
  idHash = new Uint32Array(1024);

  private ensure(row: number): void {
    if (row < this.idHash.length) return;
    const size = Math.max(row + 1, this.idHash.length * 2);
    const grow = <T extends Int32Array | Uint32Array>(a: T, fill?: number): T => {
      const next = new (a.constructor as new (n: number) => T)(size);
      if (fill !== undefined) next.fill(fill);
      next.set(a);
      return next;
    };
    this.topicIndex = grow(this.topicIndex, -1);
    this.messageIndex = grow(this.messageIndex, -1);
    this.idHash = grow(this.idHash);
  }

  fetched(row: number, comment: FetchedComment): void {
    this.ensure(row);
    this.authors[row] = comment.authorUsername.replace(/^@/, '');
    this.postedAt[row] = comment.postedAt;
    this.idHash[row] = fnv1a32(comment.id);
  }

  /** Moves every row to its number after a compaction of the team's columns (see TeamIndex.compact). */
  remap(remap: Int32Array, rows: number): void {
    const size = Math.max(1024, rows);
    const topicIndex = new Int32Array(size).fill(-1);
    const messageIndex = new Int32Array(size).fill(-1);
    const idHash = new Uint32Array(size);
    const authors: string[] = new Array(rows);
    const postedAt: string[] = new Array(rows);
    const languages: (string | null)[] = new Array(rows);
    const known = Math.min(remap.length, this.idHash.length);
    for (let r = 0; r < known; r++) {
      const j = remap[r];
      if (j < 0) continue;
      topicIndex[j] = this.topicIndex[r];
      messageIndex[j] = this.messageIndex[r];
      idHash[j] = this.idHash[r];
      authors[j] = this.authors[r];
      postedAt[j] = this.postedAt[r];
      languages[j] = this.languages[r];
    }
    Object.assign(this, { topicIndex, messageIndex, idHash, authors, postedAt, languages });
  }

  scored(row: number, comment: ScoredComment): void {
    this.ensure(row);
    this.topicIndex[row] = comment.topicIndex ?? -1;
    this.messageIndex[row] = comment.messageIndex ?? -1;
    this.languages[row] = comment.language ?? null;
  }
}

/** 32-bit FNV-1a over UTF-16 code units: stable across processes, so the seeded order is too. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const isComments = eventsOf<CommentsFetched | CommentsScored>(['CommentsFetched', 'CommentsScored']);
const ANALYSIS_EVENT_TYPES = analysesProjector.eventTypes;

/** Event types the sampling index folds: the analysis index's feed plus the analysis streams. */
export const SAMPLING_EVENT_TYPES: readonly string[] = [...INDEX_EVENT_TYPES, ...ANALYSIS_EVENT_TYPES];

/** An analysis as sampling needs it: the analysis read model's document, its result payload dropped. */
export type AnalysisRecord = AnalysisDoc;

/**
 * The sampling service's own in-memory state, built from the event log: a private copy of the
 * analysis service's columnar comment index (same code, `applyToIndex`), row details it lacks,
 * and the analyses (folded with the analysis read model's own `evolve`). Nothing here calls the
 * analysis service, so sampling can run as its own process.
 */
export class SamplingIndex {
  readonly comments: CommentIndex;
  private readonly details = new WeakMap<TeamIndex, RowDetails>();
  private readonly analyses = new Map<string, AnalysisRecord>();

  constructor(compaction?: CompactionPolicy) {
    this.comments = new CommentIndex(compaction);
  }

  detailsOf(team: TeamIndex): RowDetails {
    let d = this.details.get(team);
    if (!d) {
      const details = (d = new RowDetails());
      this.details.set(team, details);
      team.onCompaction((remap, rows) => details.remap(remap, rows));
    }
    return d;
  }

  analysis(analysisId: string): AnalysisRecord | null {
    return this.analyses.get(analysisId) ?? null;
  }

  apply(event: RecordedEvent): void {
    if (projects(analysesProjector, event)) {
      const id = event.data.analysisId;
      // The completed payload (mixes, clouds) is not needed to sample; keep memory to the filters.
      this.analyses.set(id, {
        ...analysesProjector.evolve(this.analyses.get(id) ?? null, event, id),
        result: null,
      });
      return;
    }
    applyToIndex(this.comments, event);
    if (!isComments(event)) return;
    const data = event.data;
    const found = this.comments.postById(data.postId);
    const pending = found?.post.pending;
    if (!found || !pending || pending.dataVersion !== data.dataVersion) return;
    const details = this.detailsOf(found.team);
    if (event.type === 'CommentsFetched') {
      for (const c of event.data.comments) {
        const row = pending.rowById.get(c.id);
        if (row !== undefined) details.fetched(row, c);
      }
    } else {
      for (const c of event.data.comments) {
        const row = pending.rowById.get(c.commentId);
        if (row !== undefined) details.scored(row, c);
      }
    }
  }
}
