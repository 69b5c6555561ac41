import {
  MemoryReadStore,
  type Doc,
  type Projector,
  type ReadStore,
  type RecordedEvent,
} from '@analyst/platform';

/**
 * Folds events through projectors into plain maps, with the runtime's rule (an event at or below
 * a document's applied revision for its stream is skipped), then loads the documents into a fresh
 * MemoryReadStore. Same projector code as the live read models, without a query per event.
 */
export class ProjectorFold {
  private readonly docs = new Map<Projector, Map<string, { doc: Doc; streams: Map<string, number> }>>();
  private readonly byType = new Map<string, Projector[]>();

  constructor(private readonly projectors: readonly Projector[]) {
    for (const projector of projectors) {
      this.docs.set(projector, new Map());
      for (const type of projector.eventTypes)
        this.byType.set(type, [...(this.byType.get(type) ?? []), projector]);
    }
  }

  apply(event: RecordedEvent): void {
    for (const projector of this.byType.get(event.type) ?? []) {
      const docs = this.docs.get(projector)!;
      for (const id of projector.documentIds(event)) {
        const current = docs.get(id);
        if (current && (current.streams.get(event.streamId) ?? -1) >= event.revision) continue;
        const next = projector.evolve(current ? current.doc : null, event, id) as Doc;
        // Projectors already return a fresh document carrying its id; copy only one that does not.
        const doc = next._id === id ? next : ({ ...next, _id: id } as Doc);
        const streams = current?.streams ?? new Map<string, number>();
        streams.set(event.streamId, event.revision);
        docs.set(id, { doc, streams });
      }
    }
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
