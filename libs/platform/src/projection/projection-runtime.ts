import { Logger } from '@nestjs/common';
import {
  type Doc,
  DuplicateKeyError,
  type EventStore,
  type ReadStore,
  type RecordedEvent,
  UNKNOWN_INDEX,
} from '@analyst/eventsourcing';
import { PositionWaiters } from './position-waiters';
import type { Projected, Projector } from './projector';
import { findUniqueClash, type ProjectionConflict } from './unique-clash';

/**
 * Lost races (another writer changed or created the document first) retried at once, since each
 * re-read sees the other write. More than this many in a row means something else is wrong, and
 * the caller retries the event with backoff.
 */
const MAX_RACES = 50;
/** A clash on a non-_id unique index is re-checked this often (with short pauses) before it counts as real. */
const CLASH_CHECKS = 3;
const CLASH_PAUSE_MS = 15;

export interface ProjectionRuntimeOptions {
  /** Told about every document write skipped for a genuine unique clash (metrics). */
  onConflict?: (conflict: ProjectionConflict) => void;
}

export type ApplyOutcome = 'written' | 'already-applied' | 'skipped-conflict';

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
  private readonly listeners: ((event: RecordedEvent) => void)[] = [];

  private readonly logger = new Logger('Projections');

  constructor(
    private readonly store: ReadStore,
    readonly projectors: readonly Projector[],
    private readonly options: ProjectionRuntimeOptions = {},
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
    this.notify(event);
    this.markApplied(event.position);
  }

  /**
   * Called with every projected event once its documents are written (or were found written by a
   * replica), so an in-process cache of those documents can drop what the event changed.
   */
  onApplied(listener: (event: RecordedEvent) => void): void {
    this.listeners.push(listener);
  }

  private notify(event: RecordedEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error(`a listener failed on ${event.type} ${event.streamId}: ${String(error)}`);
      }
    }
  }

  /**
   * Applies one event to one document. Never fails for a duplicate key: a clash on `_id` or a lost
   * conditional write means another writer (a replica) got there first, so the document is re-read
   * and the `_streams` memo decides; a clash on another unique index that persists is a fact the log
   * holds (two documents claiming one value), logged, reported and skipped so later events project.
   */
  async applyTo(projector: Projector, id: string, event: RecordedEvent): Promise<ApplyOutcome> {
    const collection = this.store.collection<Projected<Doc>>(projector.collection);
    const key = streamKey(event.streamId);
    let races = 0;
    let clashes = 0;
    for (;;) {
      const current = await collection.findOne({ _id: id });
      if (current && (current._streams?.[key] ?? -1) >= event.revision) return 'already-applied';
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
          return 'written';
        }
        const result = await collection.replaceOne({ _id: id, _version: current._version }, next);
        if (result.matched === 1) return 'written';
        races += 1; // another writer moved `_version` on
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        if (error.index === '_id') {
          races += 1; // another writer created the document first
        } else {
          const clash = await findUniqueClash(collection, projector.indexes ?? [], next, error.index);
          // FerretDB's E11000 names no index: with no other holder found it was a race on `_id`.
          if (!clash && error.index === UNKNOWN_INDEX && (await collection.findOne({ _id: id }))) races += 1;
          else if (++clashes >= CLASH_CHECKS) {
            this.conflict({
              projector: projector.name,
              collection: projector.collection,
              documentId: id,
              index: clash?.index ?? error.index,
              clashingId: clash?.clashingId ?? null,
              event: {
                id: event.id,
                type: event.type,
                streamId: event.streamId,
                revision: event.revision,
                position: event.position,
              },
            });
            return 'skipped-conflict';
          } else await new Promise((resolve) => setTimeout(resolve, CLASH_PAUSE_MS * clashes));
        }
      }
      if (races > MAX_RACES) {
        throw new Error(
          `${projector.name}: lost ${races} write races in a row on ${projector.collection}/${id} at ${event.streamId}@${event.revision}`,
        );
      }
    }
  }

  private conflict(conflict: ProjectionConflict): void {
    const { event } = conflict;
    this.logger.error(
      `${conflict.projector}: skipped ${conflict.collection}/${conflict.documentId} for ${event.type} ${event.streamId}@${event.revision} ` +
        `(event ${event.id}, position ${event.position}): unique index ${conflict.index} is held by ${conflict.clashingId ?? 'an unidentified document'}`,
    );
    this.options.onConflict?.(conflict);
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
