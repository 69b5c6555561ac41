import type { Doc, IndexSpec, RecordedEvent } from '@analyst/eventsourcing';

/** Bookkeeping a projected document carries next to its own fields. */
export interface ProjectionMeta {
  /** Last applied revision per source stream: the per-document idempotency checkpoint. */
  _streams: Record<string, number>;
  /** Optimistic-concurrency counter for the document itself. */
  _version: number;
}

export type Projected<D extends Doc> = D & ProjectionMeta;

/**
 * A read model as a fold: `evolve(document | null, event) -> document`. The runtime supplies the
 * idempotency (an event at or below a stream's applied revision is skipped) and the storage.
 */
export interface Projector<D extends Doc = Doc> {
  readonly name: string;
  readonly collection: string;
  readonly eventTypes: readonly string[];
  readonly indexes?: readonly IndexSpec[];
  /** Ids of the documents this event changes; empty when none. */
  documentIds(event: RecordedEvent): string[];
  evolve(doc: D | null, event: RecordedEvent, id: string): D;
}

/** Strips the runtime's bookkeeping before a document leaves a query handler. */
export function withoutMeta<D extends Doc>(doc: D & Partial<ProjectionMeta>): D {
  const { _streams: _s, _version: _v, ...rest } = doc;
  return rest as unknown as D;
}
