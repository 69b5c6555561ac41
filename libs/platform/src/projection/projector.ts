import type { Doc, DomainEvent, IndexSpec, Recorded, RecordedEvent } from '@analyst/eventsourcing';

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
 *
 * `E` is the union of domain events it folds, and `eventTypes` lists their types: the runtime hands
 * a projector only the events of those types, so `documentIds` and `evolve` receive `Recorded<E>`
 * (a switch on `event.type` narrows `event.data`) and never cast a stored event.
 */
export interface Projector<D extends Doc = Doc, E extends DomainEvent = DomainEvent> {
  readonly name: string;
  readonly collection: string;
  readonly eventTypes: readonly E['type'][];
  readonly indexes?: readonly IndexSpec[];
  /**
   * Every event of a stream it reads, of the types it folds, changes the same one document, so a
   * document's memo advances one revision at a time and a gap can only be a lost write. The runtime
   * then folds the missing events from the log (when it has one: the shared read stores).
   */
  readonly contiguousStreams?: boolean;
  /**
   * Every event writes a document of its own that no later event changes (a chunk of comments named
   * by its stream revision): the runtime inserts it without reading first, and a duplicate key means
   * it is written already (a replica's write, or a redelivery).
   */
  readonly writeOnce?: boolean;
  /** Ids of the documents this event changes; empty when none. */
  documentIds(event: Recorded<E>): string[];
  evolve(doc: D | null, event: Recorded<E>, id: string): D;
}

/**
 * Work an event needs after its documents are written and before it counts as projected: a
 * derived document that takes more than one document or the log to compute (a post's materialized
 * analysis). Runs in log order, may be repeated after a crash or by a replica, so it must be
 * idempotent, and its document must depend only on the log up to its event (a replica may run it
 * later, and the read-model check rebuilds it at the end of its replay); a failure is retried like a
 * failed write.
 */
export interface ProjectionStep {
  readonly name: string;
  /** The collection it writes (dropped with the read models on a rebuild). */
  readonly collection: string;
  readonly eventTypes: readonly string[];
  readonly indexes?: readonly IndexSpec[];
  apply(event: RecordedEvent): Promise<void>;
}

const STREAM_KEY_UNSAFE = /[.$]/g;

/** A stream's key in a document's `_streams` memo: field names may not hold dots or dollars in MongoDB. */
export function streamKey(streamId: string): string {
  return streamId.replace(STREAM_KEY_UNSAFE, '_');
}

/** The last revision of `streamId` a projected document has folded; -1 when none. */
export function appliedRevision(doc: Partial<ProjectionMeta>, streamId: string): number {
  return doc._streams?.[streamKey(streamId)] ?? -1;
}

/** Strips the runtime's bookkeeping before a document leaves a query handler. */
export function withoutMeta<D extends Doc>(doc: D & Partial<ProjectionMeta>): D {
  const { _streams: _s, _version: _v, ...rest } = doc;
  return rest as unknown as D;
}

/**
 * The projector boundary: whether a stored event is one `projector` folds (its type is listed), and
 * then typed as the projector's union. The runtime routes by the same list.
 */
export function projects<D extends Doc, E extends DomainEvent>(
  projector: Projector<D, E>,
  event: RecordedEvent,
): event is Recorded<E> {
  return projector.eventTypes.some((type) => type === event.type);
}
