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
    versions: SchemaVersions = {},
  ): Promise<CommandOutcome<S, E>> {
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await this.load(streamId, decider);
      const events = decider.decide(command, state);
      if (events.length === 0) return { state, events, position: -1, revision };
      const occurredAt = this.clock.now().toISOString();
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
        return {
          state: events.reduce(decider.evolve, state),
          events,
          position: result.position,
          revision: result.nextExpectedRevision,
        };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= 50) throw error;
      }
    }
  }
}
