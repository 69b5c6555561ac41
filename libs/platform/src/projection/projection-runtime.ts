import { Logger } from '@nestjs/common';
import {
  type Doc,
  DuplicateKeyError,
  type EventStore,
  type IndexSpec,
  type ReadCollection,
  type ReadStore,
  type RecordedEvent,
  UNKNOWN_INDEX,
} from '@analyst/eventsourcing';
import { PositionWaiters } from './position-waiters';
import { projects, streamKey, type Projected, type ProjectionStep, type Projector } from './projector';
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
  /**
   * The log, for a read store that several replicas write: where a conditional write is a read then
   * a write (FerretDB v1), a replica's late write can put back an older state of a document after
   * another replica moved on, and the next write would skip what lies between. With the log, a
   * `contiguousStreams` projector folds those events again.
   */
  log?: Pick<EventStore, 'readStream'>;
  /** Steps run after an event's documents are written, before it counts as projected. */
  steps?: readonly ProjectionStep[];
}

export type ApplyOutcome = 'written' | 'already-applied' | 'skipped-conflict';

/** What one document's write has met so far: lost races and unique clashes. */
interface WriteTries {
  races: number;
  clashes: number;
}

/** The documents one event writes: per interested projector, the ids it names. */
interface Target {
  projector: Projector;
  ids: readonly string[];
}

function targetKey(targets: readonly Target[]): string {
  return targets.map((t) => `${t.projector.name}\u0000${t.ids.join('\u0001')}`).join('\u0002');
}

/**
 * The document after `events`, skipping those its `_streams` memo shows applied already (a
 * replica's write, or a redelivery); null when every one was.
 */
function fold(
  projector: Projector,
  id: string,
  current: Projected<Doc> | null,
  events: readonly RecordedEvent[],
): Projected<Doc> | null {
  const { _streams, _version, ...plain } = current ?? ({ _streams: {}, _version: 0 } as Projected<Doc>);
  const streams: Record<string, number> = { ...(_streams ?? {}) };
  let doc: Doc | null = current ? (plain as Doc) : null;
  let changed = false;
  for (const event of events) {
    const key = streamKey(event.streamId);
    if ((streams[key] ?? -1) >= event.revision) continue;
    doc = projector.evolve(doc, event, id);
    streams[key] = event.revision;
    changed = true;
  }
  if (!changed) return null;
  return { ...doc, _id: id, _streams: streams, _version: (_version ?? 0) + 1 } as Projected<Doc>;
}

/**
 * Applies events to every interested projector. Idempotent per document and stream revision, and
 * safe under concurrent consumers: each write is conditional on the document's `_version`.
 */
export class ProjectionRuntime {
  private readonly byType = new Map<string, Projector[]>();
  private readonly stepsByType = new Map<string, ProjectionStep[]>();
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
    for (const step of options.steps ?? []) {
      for (const type of step.eventTypes)
        this.stepsByType.set(type, [...(this.stepsByType.get(type) ?? []), step]);
    }
  }

  private get collections(): { collection: string; indexes?: readonly IndexSpec[] }[] {
    return [...this.projectors, ...(this.options.steps ?? [])];
  }

  async createIndexes(): Promise<void> {
    for (const projected of this.collections) {
      for (const index of projected.indexes ?? [])
        await this.store.collection(projected.collection).createIndex(index);
    }
  }

  handles(type: string): boolean {
    return this.byType.has(type) || this.stepsByType.has(type);
  }

  async apply(event: RecordedEvent): Promise<void> {
    await this.applyRun([event], this.targetsOf(event));
  }

  /**
   * Applies a page of the log in order. A run of consecutive events that write the same documents
   * (an analysis created and completed in one append) is folded in memory and written once: on
   * FerretDB's SQLite backend an insert stays flat as a collection grows, while every write to an
   * existing document scans the collection. Each document still sees its events in log order, and
   * nothing is reordered across documents.
   */
  async applyPage(events: readonly RecordedEvent[]): Promise<void> {
    let run: RecordedEvent[] = [];
    let runTargets: Target[] = [];
    let runKey = '';
    for (const event of events) {
      if (!this.handles(event.type)) {
        if (run.length > 0) await this.applyRun(run, runTargets);
        run = [];
        this.markApplied(event.position);
        continue;
      }
      const targets = this.targetsOf(event);
      const key = targetKey(targets);
      if (run.length > 0 && key !== runKey) {
        await this.applyRun(run, runTargets);
        run = [];
      }
      run.push(event);
      runTargets = targets;
      runKey = key;
    }
    if (run.length > 0) await this.applyRun(run, runTargets);
  }

  private targetsOf(event: RecordedEvent): Target[] {
    return (this.byType.get(event.type) ?? []).map((projector) => ({
      projector,
      ids: projector.documentIds(event),
    }));
  }

  /** Events that all write exactly `targets`, folded per document and written once each. */
  private async applyRun(events: readonly RecordedEvent[], targets: readonly Target[]): Promise<void> {
    for (const { projector, ids } of targets) {
      for (const id of ids) await this.applyTo(projector, id, events);
    }
    for (const event of events)
      for (const step of this.stepsByType.get(event.type) ?? []) await step.apply(event);
    for (const event of events) this.notify(event);
    this.markApplied(events[events.length - 1].position);
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
  async applyTo(projector: Projector, id: string, events: readonly RecordedEvent[]): Promise<ApplyOutcome> {
    const collection = this.store.collection<Projected<Doc>>(projector.collection);
    if (projector.writeOnce) return this.writtenOnce(collection, projector, id, events);
    if (events[0].revision === 0 && (await this.created(collection, projector, id, events))) return 'written';
    const tries: WriteTries = { races: 0, clashes: 0 };
    for (;;) {
      const outcome = await this.tryWrite(collection, projector, id, events, tries);
      if (outcome !== 'again') return outcome;
      if (tries.races > MAX_RACES) {
        const event = events[events.length - 1];
        throw new Error(
          `${projector.name}: lost ${tries.races} write races in a row on ${projector.collection}/${id} at ${event.streamId}@${event.revision}`,
        );
      }
    }
  }

  /** One read, fold and conditional write of the document; 'again' when it must be tried again. */
  private async tryWrite(
    collection: ReadCollection<Projected<Doc>>,
    projector: Projector,
    id: string,
    events: readonly RecordedEvent[],
    tries: WriteTries,
  ): Promise<ApplyOutcome | 'again'> {
    const current = await collection.findOne({ _id: id });
    const lost = await this.lostEvents(projector, id, current, events);
    const next = fold(projector, id, current, lost.length > 0 ? [...lost, ...events] : events);
    if (!next) return 'already-applied';
    try {
      if (!current) {
        await collection.insertOne(next);
        return 'written';
      }
      const result = await collection.replaceOne({ _id: id, _version: current._version }, next);
      if (result.matched === 1) return 'written';
      tries.races += 1; // another writer moved `_version` on
      return 'again';
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return this.afterDuplicateKey(collection, projector, id, next, error, events, tries);
    }
  }

  /**
   * A duplicate key on `_id` is a race another writer won; on another unique index it is re-checked
   * a few times (with short pauses) before it counts as a clash, reported and skipped.
   */
  private async afterDuplicateKey(
    collection: ReadCollection<Projected<Doc>>,
    projector: Projector,
    id: string,
    next: Projected<Doc>,
    error: DuplicateKeyError,
    events: readonly RecordedEvent[],
    tries: WriteTries,
  ): Promise<'skipped-conflict' | 'again'> {
    if (error.index === '_id') {
      tries.races += 1; // another writer created the document first
      return 'again';
    }
    const clash = await findUniqueClash(collection, projector.indexes ?? [], next, error.index);
    // FerretDB's E11000 names no index: with no other holder found it was a race on `_id`.
    if (!clash && error.index === UNKNOWN_INDEX && (await collection.findOne({ _id: id }))) {
      tries.races += 1;
      return 'again';
    }
    tries.clashes += 1;
    if (tries.clashes < CLASH_CHECKS) {
      await new Promise((resolve) => setTimeout(resolve, CLASH_PAUSE_MS * tries.clashes));
      return 'again';
    }
    const event = events[events.length - 1];
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
  }

  /**
   * The events `current` lacks before `events`: for a `contiguousStreams` projector, a stream whose
   * first event here is more than one revision past the document's memo lost a write, and the events
   * between are read back from the log (only those this projector folds into this document).
   */
  private async lostEvents(
    projector: Projector,
    id: string,
    current: Projected<Doc> | null,
    events: readonly RecordedEvent[],
  ): Promise<RecordedEvent[]> {
    const log = this.options.log;
    if (!log || !projector.contiguousStreams || !current) return [];
    const lost: RecordedEvent[] = [];
    for (const streamId of new Set(events.map((e) => e.streamId))) {
      const applied = current._streams?.[streamKey(streamId)];
      const first = events.find((e) => e.streamId === streamId)!;
      if (applied === undefined || first.revision <= applied + 1) continue;
      for (const event of await log.readStream(streamId, applied + 1)) {
        if (event.revision >= first.revision) break;
        if (projects(projector, event) && projector.documentIds(event).includes(id)) lost.push(event);
      }
    }
    if (lost.length > 0)
      this.logger.warn(
        `${projector.name}: ${projector.collection}/${id} had lost ${lost.length} event(s) to a concurrent write; folded again from the log`,
      );
    return lost.sort((a, b) => a.position - b.position);
  }

  /**
   * A run that opens its stream most often creates its document: insert it without reading first.
   * A duplicate key (the document exists, or a unique clash) leaves the decision to the read path.
   * On FerretDB's SQLite backend a find by `_id` scans the collection (its `_id` filter does not
   * match the expression its index is built on), while an insert's uniqueness check uses the index.
   */
  private async created(
    collection: ReadCollection<Projected<Doc>>,
    projector: Projector,
    id: string,
    events: readonly RecordedEvent[],
  ): Promise<boolean> {
    let doc: Projected<Doc>;
    try {
      doc = fold(projector, id, null, events)!;
    } catch {
      return false; // these events need the document to exist (its evolve says so): not a creation
    }
    try {
      await collection.insertOne(doc);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** A write-once document: inserted; a duplicate key is the same document, written already. */
  private async writtenOnce(
    collection: ReadCollection<Projected<Doc>>,
    projector: Projector,
    id: string,
    events: readonly RecordedEvent[],
  ): Promise<ApplyOutcome> {
    try {
      await collection.insertOne(fold(projector, id, null, events)!, { idOnly: true });
      return 'written';
    } catch (error) {
      if (error instanceof DuplicateKeyError) return 'already-applied';
      throw error;
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
    for (const projected of this.collections) await this.store.collection(projected.collection).drop();
    await this.createIndexes();
    this.applied = new PositionWaiters();
    let count = 0;
    for await (const page of eventStore.readAll(-1)) {
      await this.applyPage(page);
      count += page.length;
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
