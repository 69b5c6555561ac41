import type { Doc, ReadCollection, ReadStore } from '@analyst/eventsourcing';

/**
 * A read store that can say which documents a piece of work inserted into one collection: the
 * read-model check learns which event made each derived document (a step's documents carry no memo).
 */
export class RecordingReadStore implements ReadStore {
  private recording: { collection: string; ids: string[] } | null = null;

  constructor(private readonly inner: ReadStore) {}

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    const collection = this.inner.collection<T>(name);
    return new Proxy(collection, {
      get: (target, property, receiver) => {
        if (property !== 'insertOne') return Reflect.get(target, property, receiver) as unknown;
        return async (doc: T, options?: { idOnly?: boolean }) => {
          await target.insertOne(doc, options);
          if (this.recording?.collection === name) this.recording.ids.push(doc._id);
        };
      },
    });
  }

  /** Ids inserted into `collection` while `work` ran (one piece of work at a time). */
  async recordInserts(collection: string, work: () => Promise<void>): Promise<string[]> {
    this.recording = { collection, ids: [] };
    try {
      await work();
      return this.recording.ids;
    } finally {
      this.recording = null;
    }
  }

  listCollections(): Promise<string[]> {
    return this.inner.listCollections();
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
