import { Inject, Injectable } from '@nestjs/common';
import { ledgerStream, type LedgerEvent } from '@analyst/contracts';
import { ledgerDecider, type LedgerCommand, type LedgerState } from '@analyst/domain-ledger';
import {
  CatchUpStateSource,
  CommandHandler,
  CommandRunner,
  EVENT_STORE,
  type EventStore,
} from '@analyst/platform';

/**
 * A team's ledger stream, keyed by team id, bound to the ledger decider. The state comes from a
 * CatchUpStateSource: each team's folded state is kept and caught up with the events after its
 * revision before every decision, so a command is decided against the latest stream, also when
 * another process appended, without re-reading the stream. Events carry the command's `at`.
 */
@Injectable()
export class LedgerCommands extends CommandHandler<string, LedgerCommand, LedgerEvent, LedgerState> {
  constructor(@Inject(EVENT_STORE) events: EventStore, runner: CommandRunner) {
    super(runner, {
      decider: ledgerDecider,
      streamOf: ledgerStream,
      options: { source: new CatchUpStateSource(events, ledgerDecider), occurredAt: (c) => c.data.at },
    });
  }
}
