import { MemoryReadStore, type Doc, type ReadStore, type RecordedEvent } from '@analyst/eventsourcing';
import type { Projector } from './projector';

/** A folded document and the last revision it applied of each stream it read. */
export interface FoldedDocument {
  doc: Doc;
  streams: Map<string, number>;
}

/**
 * Folds events through projectors into plain maps, with the runtime's rule (an event at or below
 * a document's applied revision for its stream is skipped), then loads the documents into a fresh
 * MemoryReadStore. Same projector code as the live read models, without a query per event.
 */
export class ProjectorFold {
  private readonly docs = new Map<Projector, Map<string, FoldedDocument>>();
  private readonly byType = new Map<string, Projector[]>();

  constructor(private readonly projectors: readonly Projector[]) {
    for (const projector of projectors) {
      this.docs.set(projector, new Map());
      for (const type of projector.eventTypes)
        this.byType.set(type, [...(this.byType.get(type) ?? []), projector]);
    }
  }

  apply(event: RecordedEvent): void {
    const projectors = this.byType.get(event.type);
    if (!projectors) return;
    for (const projector of projectors) {
      const docs = this.docs.get(projector)!;
      for (const id of projector.documentIds(event)) this.applyTo(docs, projector, id, event);
    }
  }

  /** One document's next version; its entry is updated in place (no new entry per event). */
  private applyTo(
    docs: Map<string, FoldedDocument>,
    projector: Projector,
    id: string,
    event: RecordedEvent,
  ): void {
    const current = docs.get(id);
    if (current && (current.streams.get(event.streamId) ?? -1) >= event.revision) return;
    const next = projector.evolve(current ? current.doc : null, event, id) as Doc;
    // Projectors already return a fresh document carrying its id; copy only one that does not.
    const doc = next._id === id ? next : ({ ...next, _id: id } as Doc);
    if (current) {
      current.doc = doc;
      current.streams.set(event.streamId, event.revision);
    } else docs.set(id, { doc, streams: new Map([[event.streamId, event.revision]]) });
  }

  /** A folded document and the last revision of `streamId` it applied; undefined when none was folded. */
  entry(projector: Projector, id: string, streamId: string): { doc: Doc; revision: number } | undefined {
    const entry = this.docs.get(projector)?.get(id);
    return entry && { doc: entry.doc, revision: entry.streams.get(streamId) ?? -1 };
  }

  /** Every document folded for `projector`, by id. */
  documents(projector: Projector): ReadonlyMap<string, FoldedDocument> {
    return this.docs.get(projector) ?? new Map();
  }

  async toReadStore(): Promise<ReadStore> {
    const store = new MemoryReadStore();
    for (const [projector, docs] of this.docs) {
      const collection = store.collection(projector.collection);
      for (const { doc } of docs.values()) await collection.insertOne(doc);
    }
    return store;
  }
}
