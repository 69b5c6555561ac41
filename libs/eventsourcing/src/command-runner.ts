import type { Clock } from './clock';
import type { Decider, DomainEvent } from './decider';
import { ConcurrencyError } from './errors';
import { deciderEvent } from './event-boundary';
import type { EventStore, NewEvent, RecordedEvent } from './event-store.port';
import type { IdGenerator } from './id-generator';

export interface CommandContext {
  correlationId: string;
  causationId?: string | null;
  teamId: string | null;
}

export interface CommandOutcome<S, E> {
  state: S;
  events: E[];
  /** Global position of the last event appended, or -1 when the command produced none. */
  position: number;
  revision: number;
}

/** Schema version of each event type; 1 unless a type says otherwise. */
export type SchemaVersions = Partial<Record<string, number>>;

export interface CommandRunnerOptions {
  /**
   * W3C trace context to stamp on the events of one append (`metadata.traceparent`), or undefined.
   * The core knows no tracer: `@analyst/platform`'s CommandRunner passes the active OpenTelemetry span.
   */
  traceparent?: () => string | undefined;
}

/** A stream's state as of its last event, and that event's revision (-1 for no stream). */
export interface LoadedState<S> {
  state: S;
  revision: number;
}

/**
 * Where the runner gets a stream's state from before it decides. The default folds the whole
 * stream; a source may instead keep states and catch them up, or start from a snapshot. Whatever
 * it does, `load` must return the state as of the revision it reports: that revision is the
 * append's expected revision, so a stale state is refused and loaded again.
 */
export interface StateSource<S> {
  load(streamId: string): Promise<LoadedState<S>>;
  /** Told the state and revision an append produced; a caching source may keep them. */
  appended?(streamId: string, loaded: LoadedState<S>): void;
}

/**
 * A StateSource that keeps each stream's folded state in memory and, on every load, folds only the
 * events after the revision it holds. For aggregates with long streams (the ledger): a command costs
 * the events since the last one, not a replay.
 */
export class CatchUpStateSource<E extends DomainEvent, S> implements StateSource<S> {
  private readonly states = new Map<string, LoadedState<S>>();

  constructor(
    private readonly store: EventStore,
    private readonly decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>,
  ) {}

  async load(streamId: string): Promise<LoadedState<S>> {
    let loaded = this.states.get(streamId) ?? { state: this.decider.initialState(), revision: -1 };
    const fresh = await this.store.readStream(streamId, loaded.revision + 1);
    if (fresh.length > 0) {
      const state = fresh.reduce((s, e) => this.decider.evolve(s, deciderEvent<E>(e)), loaded.state);
      loaded = { state, revision: fresh[fresh.length - 1].revision };
    }
    this.states.set(streamId, loaded);
    return loaded;
  }

  appended(streamId: string, loaded: LoadedState<S>): void {
    this.states.set(streamId, loaded);
  }
}

/** Per-run choices; the defaults fold the whole stream and stamp the clock's time. */
export interface RunOptions<C, S> {
  /** Schema version of each event type; 1 unless a type says otherwise. */
  versions?: SchemaVersions;
  /** Where the state comes from before deciding (default: the whole stream, folded). */
  source?: StateSource<S>;
  /** `metadata.occurredAt` of the events (default: the clock's now), e.g. a time the command carries. */
  occurredAt?: (command: C) => string;
}

/**
 * Loads a stream, decides, and appends with the revision it read. A concurrent writer makes the
 * append fail; the runner then reloads and decides again, so rules are always checked against the
 * latest state.
 */
export class CommandRunner {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly options: CommandRunnerOptions = {},
  ) {}

  async load<E extends DomainEvent, S>(
    streamId: string,
    decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>,
  ): Promise<{ state: S; revision: number; events: RecordedEvent[] }> {
    const events = await this.store.readStream(streamId);
    const state = events.reduce((s, e) => decider.evolve(s, deciderEvent<E>(e)), decider.initialState());
    return { state, revision: events.length === 0 ? -1 : events[events.length - 1].revision, events };
  }

  async run<C, E extends DomainEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    command: C,
    context: CommandContext,
    options: RunOptions<C, S> = {},
  ): Promise<CommandOutcome<S, E>> {
    const { versions = {}, source, occurredAt: occurredAtOf } = options;
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = source ? await source.load(streamId) : await this.load(streamId, decider);
      const events = decider.decide(command, state);
      if (events.length === 0) return { state, events, position: -1, revision };
      const occurredAt = occurredAtOf ? occurredAtOf(command) : this.clock.now().toISOString();
      const traceparent = this.options.traceparent?.();
      const newEvents: NewEvent[] = events.map((e) => ({
        id: this.ids.next('ev_'),
        type: e.type,
        schemaVersion: versions[e.type] ?? 1,
        data: e.data,
        metadata: {
          correlationId: context.correlationId,
          causationId: context.causationId ?? null,
          teamId: context.teamId,
          occurredAt,
          ...(traceparent ? { traceparent } : {}),
        },
      }));
      try {
        const result = await this.store.append(streamId, newEvents, revision < 0 ? 'no_stream' : revision);
        const next = events.reduce(decider.evolve, state);
        source?.appended?.(streamId, { state: next, revision: result.nextExpectedRevision });
        return { state: next, events, position: result.position, revision: result.nextExpectedRevision };
      } catch (error) {
        // Another writer moved the stream on: load again and decide again.
        if (!(error instanceof ConcurrencyError) || attempt >= 50) throw error;
      }
    }
  }
}
