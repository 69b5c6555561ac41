import type { CheckpointStore, Doc, EventStore, ReadStore, RecordedEvent } from '@analyst/eventsourcing';
import { isDeepStrictEqual } from 'node:util';
import { comparableDocument, firstDifference } from './comparable-document';
import { streamKey, type ProjectionStep, type Projector } from './projector';
import { ProjectorFold, type FoldedDocument } from './projector-fold';
import { RecordingReadStore } from './recording-read-store';
import type {
  CollectionCheck,
  DocumentDifference,
  DocumentLag,
  DocumentRef,
  EventRef,
  ReadModelCheckReport,
} from './read-model-check-report';

export type {
  CollectionCheck,
  DocumentDifference,
  DocumentLag,
  DocumentRef,
  EventRef,
  ReadModelCheckReport,
} from './read-model-check-report';

/** A projection step the check can build over its own folded read models and the log. */
export interface StepDefinition {
  collection: string;
  eventTypes: readonly string[];
  create(store: ReadStore, log: EventStore): ProjectionStep;
}

/** The read models one service projects into the shared read store. */
export interface ReadModelSet {
  /** ANALYST_SERVICE of the service: its projections' checkpoint is `projections:<service>`. */
  service: string;
  projectors: readonly Projector[];
  /** Derived documents (see ProjectionStep), rebuilt by the check over the folded read models. */
  steps?: readonly StepDefinition[];
}

/** Where ProjectionService keeps a service's checkpoint. */
export const projectionCheckpointName = (service: string): string => `projections:${service}`;

export interface ReadModelCheckOptions {
  events: EventStore;
  live: ReadStore;
  checkpoints: CheckpointStore;
  sets: readonly ReadModelSet[];
  /** Only these collections; default all of the sets'. */
  collections?: readonly string[];
  /** Rounds of waiting and folding further for documents behind or past the replay; default 3. */
  rounds?: number;
  /** Pause before each such round, so live projections can catch up; default 1 s. */
  settleMs?: number;
}

interface CheckedProjector {
  projector: Projector;
  services: string[];
}

interface CheckedStep {
  definition: StepDefinition;
  services: string[];
}

/** A document left for another round: behind the replay, or past it. */
interface Pending {
  checked: CheckedProjector;
  id: string;
  state: 'behind' | 'ahead';
  live: Doc | null;
}

const ID_BATCH = 500;

/**
 * Compares every shared read model with the log: folds the whole log through the same projectors
 * the services run, then each live document with its fold. A document that applied exactly the
 * events the fold did must equal it; one behind or past the replay is read again after the replay
 * is carried further; what is still behind at the end is lag, unless a checkpoint of a service that
 * writes it has passed the event it misses, which is a skipped event. Holds the fold in memory
 * (limit it with `collections` on a large log).
 */
export async function checkReadModels(options: ReadModelCheckOptions): Promise<ReadModelCheckReport> {
  return new ReadModelCheck(options).run();
}

class ReadModelCheck {
  private readonly projectors: CheckedProjector[] = [];
  private readonly steps: CheckedStep[] = [];
  private readonly fold: ProjectorFold;
  private readonly stepEvents: RecordedEvent[] = [];
  private readonly stepTypes = new Set<string>();
  private head = -1;
  private readonly lag: DocumentLag[] = [];
  private readonly differences: DocumentDifference[] = [];
  private readonly liveCounts = new Map<string, number>();
  private readonly stepExpected = new Map<string, number>();
  /** Last revision of each stream the replay read, by memo key. */
  private readonly streamHeads = new Map<string, number>();

  constructor(private readonly options: ReadModelCheckOptions) {
    const wanted = options.collections ? new Set(options.collections) : null;
    for (const set of options.sets) {
      for (const projector of set.projectors)
        if (!wanted || wanted.has(projector.collection)) this.addProjector(projector, set.service);
      for (const definition of set.steps ?? [])
        if (!wanted || wanted.has(definition.collection)) this.addStep(definition, set.service);
    }
    for (const name of wanted ?? [])
      if (!this.checks(name)) throw new Error(`no shared read model is called ${name}`);
    this.fold = new ProjectorFold(this.foldedProjectors());
  }

  /** A projector several services run is checked once, naming them all. */
  private addProjector(projector: Projector, service: string): void {
    const known = this.projectors.find((p) => p.projector.collection === projector.collection);
    if (known) known.services.push(service);
    else this.projectors.push({ projector, services: [service] });
  }

  private addStep(definition: StepDefinition, service: string): void {
    const known = this.steps.find((s) => s.definition.collection === definition.collection);
    if (known) known.services.push(service);
    else this.steps.push({ definition, services: [service] });
    for (const type of definition.eventTypes) this.stepTypes.add(type);
  }

  private checks(collection: string): boolean {
    return (
      this.projectors.some((p) => p.projector.collection === collection) ||
      this.steps.some((s) => s.definition.collection === collection)
    );
  }

  /** The checked projectors, and those a checked step reads. */
  private foldedProjectors(): Projector[] {
    const folded = new Set(this.projectors.map((p) => p.projector));
    // A step reads the documents of every projector of its services (the catalog), so fold them all.
    if (this.steps.length)
      for (const set of this.options.sets)
        if (set.steps?.length) for (const projector of set.projectors) folded.add(projector);
    return [...folded];
  }

  async run(): Promise<ReadModelCheckReport> {
    const { live } = this.options;
    await this.foldFurther();
    let checkpoints = await this.loadCheckpoints();
    let pending: Pending[] = [];
    for (const checked of this.projectors) {
      const docs = await live.collection(checked.projector.collection).find({});
      this.liveCounts.set(checked.projector.collection, docs.length);
      const byId = new Map(docs.map((d) => [d._id, d]));
      const ids = new Set([...byId.keys(), ...this.fold.documents(checked.projector).keys()]);
      for (const id of ids) {
        const left = this.compare(checked, id, byId.get(id) ?? null);
        if (left) pending.push(left);
      }
    }
    const rounds = this.options.rounds ?? 3;
    for (let round = 0; round < rounds && pending.length > 0; round++) {
      await new Promise((resolve) => setTimeout(resolve, this.options.settleMs ?? 1000));
      await this.foldFurther();
      checkpoints = await this.loadCheckpoints();
      pending = await this.compareAgain(pending);
    }
    for (const left of pending) await this.settle(left, checkpoints);
    await this.checkSteps(checkpoints);
    const collections = [
      ...this.projectors.map((p) =>
        this.summary(p.projector.collection, p.services, this.fold.documents(p.projector).size, checkpoints),
      ),
      ...this.steps.map((s) =>
        this.summary(
          s.definition.collection,
          s.services,
          this.stepExpected.get(s.definition.collection) ?? 0,
          checkpoints,
        ),
      ),
    ];
    return {
      head: this.head,
      collections,
      lag: this.lag,
      differences: this.differences,
      ok: this.differences.length === 0,
    };
  }

  /** Folds the log from where the replay stopped to its head now. */
  private async foldFurther(): Promise<void> {
    for await (const page of this.options.events.readAll(this.head)) {
      for (const event of page) {
        this.fold.apply(event);
        this.streamHeads.set(streamKey(event.streamId), event.revision);
        if (this.stepTypes.has(event.type)) this.stepEvents.push(event);
        this.head = event.position;
      }
    }
  }

  private async loadCheckpoints(): Promise<Map<string, number>> {
    const services = new Set([...this.projectors, ...this.steps].flatMap((p) => p.services));
    const loaded = new Map<string, number>();
    for (const service of services)
      loaded.set(service, await this.options.checkpoints.load(projectionCheckpointName(service)));
    return loaded;
  }

  /** Null when the document agrees with the fold (or differs, which is recorded); else what is left. */
  private compare(checked: CheckedProjector, id: string, live: Doc | null): Pending | null {
    const expected = this.fold.documents(checked.projector).get(id);
    if (!live && !expected) return null;
    const memo = live ? memoOf(live) : {};
    if (this.pastReplay(memo)) return { checked, id, state: 'ahead', live };
    if (!expected) {
      this.differ(checked.projector.collection, id, live, 'unexpected', 'the log makes no such document', []);
      return null;
    }
    const { ahead, behind } = compareMemos(expected.streams, memo);
    if (ahead) {
      const streams = Object.entries(memo)
        .filter(([key, revision]) => revision > foldedRevision(expected, key))
        .map(([key, revision]) => `${key}@${revision}`);
      this.differ(
        checked.projector.collection,
        id,
        live,
        'differs',
        `it applied ${streams.join(', ')}, which the log does not make it apply`,
        [],
      );
      return null;
    }
    if (behind) return { checked, id, state: 'behind', live };
    const want = comparableDocument(expected.doc);
    const have = comparableDocument(live!);
    if (!isDeepStrictEqual(want, have)) {
      const at = firstDifference(want, have)!;
      this.differ(
        checked.projector.collection,
        id,
        live,
        'differs',
        `at the same events applied, ${at.path} is ${at.actual} where the log gives ${at.expected}`,
        [],
      );
    }
    return null;
  }

  /** Whether a memo names a stream revision the replay has not read yet (written while the check ran). */
  private pastReplay(memo: Record<string, number>): boolean {
    return Object.entries(memo).some(([key, revision]) => revision > (this.streamHeads.get(key) ?? -1));
  }

  private async compareAgain(pending: readonly Pending[]): Promise<Pending[]> {
    const left: Pending[] = [];
    const byCollection = new Map<CheckedProjector, string[]>();
    for (const p of pending) byCollection.set(p.checked, [...(byCollection.get(p.checked) ?? []), p.id]);
    for (const [checked, ids] of byCollection) {
      for (let i = 0; i < ids.length; i += ID_BATCH) {
        const batch = ids.slice(i, i + ID_BATCH);
        const docs = await this.options.live
          .collection(checked.projector.collection)
          .find({ _id: { $in: batch } });
        const byId = new Map(docs.map((d) => [d._id, d]));
        for (const id of batch) {
          const again = this.compare(checked, id, byId.get(id) ?? null);
          if (again) left.push(again);
        }
      }
    }
    return left;
  }

  /** After the last round: lag, or an event skipped for good. */
  private async settle(left: Pending, checkpoints: Map<string, number>): Promise<void> {
    const { checked, id, live } = left;
    const ref = refOf(
      checked.projector.collection,
      id,
      live ?? this.fold.documents(checked.projector).get(id)?.doc ?? null,
    );
    if (left.state === 'ahead') {
      this.lag.push({ ...ref, state: 'ahead', events: 0, firstPending: null });
      return;
    }
    const missing = await this.missingEvents(checked.projector, id, live);
    const checkpoint = Math.max(-1, ...checked.services.map((s) => checkpoints.get(s) ?? -1));
    const first = missing[0] ?? null;
    if (first && first.position <= checkpoint) {
      this.differ(
        checked.projector.collection,
        id,
        live,
        'skipped',
        `it never applied ${describe(first)}, although the checkpoint of ${checked.services.join(', ')} (position ${checkpoint}) is past it`,
        [first],
      );
      return;
    }
    this.lag.push({ ...ref, state: 'behind', events: missing.length, firstPending: first });
  }

  /** Events of the fold the live document has not applied, in log order. */
  private async missingEvents(projector: Projector, id: string, live: Doc | null): Promise<EventRef[]> {
    const expected = this.fold.documents(projector).get(id);
    if (!expected) return [];
    const memo = live ? memoOf(live) : {};
    const missing: EventRef[] = [];
    for (const [streamId, revision] of expected.streams) {
      const applied = memo[streamKey(streamId)] ?? -1;
      if (applied >= revision) continue;
      for (const event of await this.options.events.readStream(streamId, applied + 1)) {
        if (event.revision > revision) break;
        if (!projector.eventTypes.includes(event.type)) continue;
        if (projector.documentIds(event).includes(id)) missing.push(eventRef(event));
      }
    }
    return missing.sort((a, b) => a.position - b.position);
  }

  /**
   * Derived documents: each step runs over the folded read models for every event it takes, as the
   * services ran it after writing that event's documents; then both sides are compared by id.
   */
  private async checkSteps(checkpoints: Map<string, number>): Promise<void> {
    if (this.steps.length === 0) return;
    const folded = new RecordingReadStore(await this.fold.toReadStore());
    const head = await this.options.events.headPosition();
    for (const checked of this.steps) await this.checkStep(checked, folded, head, checkpoints);
  }

  private async checkStep(
    { definition, services }: CheckedStep,
    folded: RecordingReadStore,
    head: number,
    checkpoints: Map<string, number>,
  ): Promise<void> {
    const { collection } = definition;
    const madeBy = await this.runStep(definition, folded);
    const expected = await folded.collection(collection).find({});
    this.stepExpected.set(collection, expected.length);
    const live = await this.options.live.collection(collection).find({});
    this.liveCounts.set(collection, live.length);
    const liveById = new Map(live.map((d) => [d._id, d]));
    const checkpoint = Math.max(-1, ...services.map((s) => checkpoints.get(s) ?? -1));
    for (const doc of expected) {
      const have = liveById.get(doc._id) ?? null;
      liveById.delete(doc._id);
      this.compareStepDocument({ collection, services }, doc, have, madeBy.get(doc._id), checkpoint);
    }
    // Documents only the live store has: written from events after the replay, or made by nothing.
    for (const doc of liveById.values()) {
      if (head > this.head)
        this.lag.push({ ...refOf(collection, doc._id, doc), state: 'ahead', events: 0, firstPending: null });
      else this.differ(collection, doc._id, doc, 'unexpected', 'the log makes no such document', []);
    }
  }

  /** Runs a step over the fold for every event it takes; the event that made each document, by id. */
  private async runStep(
    definition: StepDefinition,
    folded: RecordingReadStore,
  ): Promise<Map<string, RecordedEvent>> {
    const step = definition.create(folded, this.options.events);
    const madeBy = new Map<string, RecordedEvent>();
    for (const event of this.stepEvents) {
      if (!step.eventTypes.includes(event.type)) continue;
      for (const id of await folded.recordInserts(definition.collection, () => step.apply(event)))
        madeBy.set(id, event);
    }
    return madeBy;
  }

  /**
   * A step's document from the fold against the live one: missing is skipped when a checkpoint of
   * its services is past the event that made it, else lag; present, it must be equal.
   */
  private compareStepDocument(
    checked: { collection: string; services: string[] },
    doc: Doc,
    have: Doc | null,
    event: RecordedEvent | undefined,
    checkpoint: number,
  ): void {
    if (!have) {
      if (event && event.position <= checkpoint)
        this.differ(
          checked.collection,
          doc._id,
          doc,
          'skipped',
          `${checked.collection} has no document for ${describe(eventRef(event))}, although the checkpoint of ${checked.services.join(', ')} (position ${checkpoint}) is past it`,
          [eventRef(event)],
        );
      else
        this.lag.push({
          ...refOf(checked.collection, doc._id, doc),
          state: 'behind',
          events: 1,
          firstPending: event ? eventRef(event) : null,
        });
      return;
    }
    const want = comparableDocument(doc);
    const got = comparableDocument(have);
    if (isDeepStrictEqual(want, got)) return;
    const at = firstDifference(want, got)!;
    this.differ(
      checked.collection,
      doc._id,
      have,
      'differs',
      `${at.path} is ${at.actual} where the log gives ${at.expected}`,
      event ? [eventRef(event)] : [],
    );
  }

  private differ(
    collection: string,
    id: string,
    doc: Doc | null,
    kind: DocumentDifference['kind'],
    message: string,
    events: EventRef[],
  ): void {
    this.differences.push({
      ...refOf(collection, id, doc),
      kind,
      message: `${collection}/${id}: ${message}`,
      events,
    });
  }

  private summary(
    collection: string,
    services: string[],
    expected: number,
    checkpoints: Map<string, number>,
  ): CollectionCheck {
    return {
      collection,
      services,
      expected,
      live: this.liveCounts.get(collection) ?? 0,
      checkpoint: Math.max(-1, ...services.map((s) => checkpoints.get(s) ?? -1)),
      lagging: this.lag.filter((l) => l.collection === collection).length,
      differing: this.differences.filter((d) => d.collection === collection).length,
    };
  }
}

function memoOf(doc: Doc | null): Record<string, number> {
  return ((doc as { _streams?: Record<string, number> } | null)?._streams ?? {}) as Record<string, number>;
}

/** Whether the live memo has applied a stream revision the fold has not (ahead), or misses one (behind). */
function compareMemos(
  folded: FoldedDocument['streams'],
  live: Record<string, number>,
): { ahead: boolean; behind: boolean } {
  const foldedByKey = new Map<string, number>();
  for (const [streamId, revision] of folded) foldedByKey.set(streamKey(streamId), revision);
  let ahead = false;
  let behind = false;
  for (const [key, revision] of Object.entries(live))
    if (revision > (foldedByKey.get(key) ?? -1)) ahead = true;
  for (const [key, revision] of foldedByKey) if ((live[key] ?? -1) < revision) behind = true;
  return { ahead, behind };
}

/** The revision a folded document applied of the stream with this memo key; -1 for none. */
function foldedRevision(folded: FoldedDocument, key: string): number {
  for (const [streamId, revision] of folded.streams) if (streamKey(streamId) === key) return revision;
  return -1;
}

function refOf(collection: string, documentId: string, doc: Doc | null): DocumentRef {
  const teamId = doc && typeof doc.teamId === 'string' ? doc.teamId : null;
  return { collection, documentId, teamId };
}

function eventRef(event: RecordedEvent | EventRef): EventRef {
  return {
    streamId: event.streamId,
    revision: event.revision,
    position: event.position,
    type: event.type,
    id: event.id,
  };
}

function describe(event: EventRef): string {
  return `${event.type} ${event.id} (${event.streamId}@${event.revision}, position ${event.position})`;
}
