import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import { DuplicateKeyError, type Doc, type ReadStore } from '../read-store/read-store.port';
import { PositionWaiters } from './position-waiters';
import type { Projected, Projector } from './projector';

const STREAM_KEY_UNSAFE = /[.$]/g;

/** Field names may not hold dots or dollars in MongoDB. */
function streamKey(streamId: string): string {
  return streamId.replace(STREAM_KEY_UNSAFE, '_');
}

/**
 * Applies events to every interested projector. Idempotent per document and stream revision, and
 * safe under concurrent consumers: each write is conditional on the document's `_version`.
 */
export class ProjectionRuntime {
  private readonly byType = new Map<string, Projector[]>();
  private applied = new PositionWaiters();

  constructor(
    private readonly store: ReadStore,
    readonly projectors: readonly Projector[],
  ) {
    for (const projector of projectors) {
      for (const type of projector.eventTypes) {
        this.byType.set(type, [...(this.byType.get(type) ?? []), projector]);
      }
    }
  }

  async createIndexes(): Promise<void> {
    for (const projector of this.projectors) {
      for (const index of projector.indexes ?? [])
        await this.store.collection(projector.collection).createIndex(index);
    }
  }

  handles(type: string): boolean {
    return this.byType.has(type);
  }

  async apply(event: RecordedEvent): Promise<void> {
    for (const projector of this.byType.get(event.type) ?? []) {
      for (const id of projector.documentIds(event)) await this.applyTo(projector, id, event);
    }
    this.markApplied(event.position);
  }

  private async applyTo(projector: Projector, id: string, event: RecordedEvent): Promise<void> {
    const collection = this.store.collection<Projected<Doc>>(projector.collection);
    const key = streamKey(event.streamId);
    for (let attempt = 0; ; attempt++) {
      const current = await collection.findOne({ _id: id });
      if (current && (current._streams?.[key] ?? -1) >= event.revision) return; // already applied
      const { _streams, _version, ...plain } = current ?? ({ _streams: {}, _version: 0 } as Projected<Doc>);
      const evolved = projector.evolve(current ? (plain as Doc) : null, event, id);
      const next = {
        ...evolved,
        _id: id,
        _streams: { ...(_streams ?? {}), [key]: event.revision },
        _version: (_version ?? 0) + 1,
      } as Projected<Doc>;
      try {
        if (!current) {
          await collection.insertOne(next);
          return;
        }
        const result = await collection.replaceOne({ _id: id, _version: current._version }, next);
        if (result.matched === 1) return;
      } catch (error) {
        // Another consumer created the document first, or a unique index refused a real clash.
        if (!(error instanceof DuplicateKeyError) || error.index !== '_id' || attempt > 20) throw error;
      }
    }
  }

  /** Drops every projected collection and folds the whole log again. */
  async rebuild(eventStore: EventStore): Promise<number> {
    for (const projector of this.projectors) await this.store.collection(projector.collection).drop();
    await this.createIndexes();
    this.applied = new PositionWaiters();
    let count = 0;
    for await (const page of eventStore.readAll(-1)) {
      for (const event of page) {
        if (this.byType.has(event.type)) await this.apply(event);
        else this.markApplied(event.position);
        count += 1;
      }
    }
    return count;
  }

  markApplied(position: number): void {
    this.applied.advance(position);
  }

  get position(): number {
    return this.applied.position;
  }

  /** Read-your-writes: resolves once every event up to `position` has been projected. */
  waitFor(position: number, timeoutMs = 5000): Promise<void> {
    return this.applied.waitFor(position, timeoutMs, 'read models');
  }
}
