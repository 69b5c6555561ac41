import type { LedgerEvent } from '@analyst/contracts';
import { ledgerStream } from '@analyst/contracts';
import {
  decideLedger,
  evolveLedger,
  initialLedgerState,
  type LedgerCommand,
  type LedgerState,
} from '@analyst/domain-ledger';
import {
  ConcurrencyError,
  KeyedQueue,
  currentTraceparent,
  type CommandContext,
  type EventStore,
  type IdGenerator,
  type NewEvent,
  deciderEvent,
} from '@analyst/platform';

interface Cached {
  state: LedgerState;
  revision: number;
}

export interface LedgerOutcome {
  state: LedgerState;
  events: LedgerEvent[];
  /** Global position of the last event appended, or -1 when the command wrote nothing. */
  position: number;
}

/**
 * Runs ledger commands one at a time per team. Each team's folded state is kept in memory and
 * caught up from the store (events after the cached revision) before every decision, so a
 * command is always decided against the latest stream, also when another process appended:
 * the append's expected revision refuses a stale decision and the loop decides again. This is
 * CommandRunner's contract without re-reading the whole stream for every command.
 */
export class LedgerStreams {
  private readonly cache = new Map<string, Cached>();
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly store: EventStore,
    private readonly ids: IdGenerator,
  ) {}

  execute(teamId: string, command: LedgerCommand, context: CommandContext): Promise<LedgerOutcome> {
    let outcome: LedgerOutcome | undefined;
    return this.queue
      .push(teamId, async () => {
        outcome = await this.run(teamId, command, context);
      })
      .then(() => outcome as LedgerOutcome);
  }

  /** The team's state as of the last event in the store. */
  async state(teamId: string): Promise<LedgerState> {
    return (await this.catchUp(teamId)).state;
  }

  private async catchUp(teamId: string): Promise<Cached> {
    const streamId = ledgerStream(teamId);
    let cached = this.cache.get(teamId) ?? { state: initialLedgerState(), revision: -1 };
    const fresh = await this.store.readStream(streamId, cached.revision + 1);
    if (fresh.length > 0) {
      const state = fresh.reduce((s, e) => evolveLedger(s, deciderEvent<LedgerEvent>(e)), cached.state);
      cached = { state, revision: fresh[fresh.length - 1].revision };
    }
    this.cache.set(teamId, cached);
    return cached;
  }

  private async run(teamId: string, command: LedgerCommand, context: CommandContext): Promise<LedgerOutcome> {
    const streamId = ledgerStream(teamId);
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await this.catchUp(teamId);
      const events = decideLedger(command, state);
      if (events.length === 0) return { state, events, position: -1 };
      const occurredAt = command.data.at;
      // The ledger appends without CommandRunner; it carries the trace on its events the same way.
      const traceparent = currentTraceparent();
      const records: NewEvent[] = events.map((e) => ({
        id: this.ids.next('ev_'),
        type: e.type,
        schemaVersion: 1,
        data: e.data,
        metadata: {
          correlationId: context.correlationId,
          causationId: context.causationId ?? null,
          teamId: context.teamId ?? teamId,
          occurredAt,
          ...(traceparent ? { traceparent } : {}),
        },
      }));
      try {
        const result = await this.store.append(streamId, records, revision < 0 ? 'no_stream' : revision);
        const next = events.reduce(evolveLedger, state);
        this.cache.set(teamId, { state: next, revision: result.nextExpectedRevision });
        return { state: next, events, position: result.position };
      } catch (error) {
        // Another writer moved the stream on: catch up and decide again.
        if (!(error instanceof ConcurrencyError) || attempt >= 50) throw error;
      }
    }
  }
}
