import { LEDGER_EVENT_TYPES, ledgerStream, type CreditBalances, type LedgerEvent } from '@analyst/contracts';
import {
  foldLedgerBalances,
  LEDGER_BALANCES,
  teamCreditsAt,
  type LedgerBalancesDoc,
} from '@analyst/ledger-read';
import {
  appliedRevision,
  withoutMeta,
  type EventStore,
  type ReadStore,
  type RecordedEvent,
} from '@analyst/platform';
import { GroupCommit } from '../batching/group-commit';

/** Teams whose folded balances a process keeps; past it the oldest is dropped (and read again). */
export const TEAM_CREDITS_KEPT = 10_000;

interface Folded {
  doc: LedgerBalancesDoc | null;
  /** The last revision of the team's ledger stream folded into `doc`; -1 for none. */
  revision: number;
}

const LEDGER_TYPES: ReadonlySet<string> = new Set(LEDGER_EVENT_TYPES);

function isLedgerEvent(event: RecordedEvent): event is RecordedEvent & LedgerEvent {
  return LEDGER_TYPES.has(event.type);
}

/**
 * `credits` of `GET /team`, from the team's ledger stream in the log, as of each request's `at` (in
 * a new UTC month the MAPs are that month's allotment even before the reset has been written).
 *
 * The balances are the ledger projector's own fold (`foldLedgerBalances`), kept per team in memory
 * and brought up to date on every request by reading the stream past what was folded: one indexed
 * read of the log, usually empty, instead of a lookup in the ledger's read model. That is never
 * behind the log (the read model is, until the ledger has projected), and it spares the read store a
 * lookup per request (on FerretDB a scan). A team's first request starts from the read model's
 * document and its memo, so a long ledger is not folded from its start.
 *
 * Concurrent requests for one team share a read (GroupCommit): a request that arrives while a read
 * is out waits for the next one, so every request still reads the log after it arrived.
 */
export class TeamCreditsReader {
  private readonly folded = new Map<string, Folded>();
  private readonly lanes: GroupCommit<Date, CreditBalances>;

  constructor(
    private readonly store: ReadStore,
    private readonly log: Pick<EventStore, 'readStream'>,
  ) {
    this.lanes = new GroupCommit(async (teamId, ats) => {
      const doc = await this.current(teamId);
      return ats.map((at) => teamCreditsAt(doc, at));
    });
  }

  read(teamId: string, at: Date): Promise<CreditBalances> {
    return this.lanes.submit(teamId, at);
  }

  private async current(teamId: string): Promise<LedgerBalancesDoc | null> {
    const stream = ledgerStream(teamId);
    let { doc, revision } = this.folded.get(teamId) ?? (await this.fromReadModel(teamId, stream));
    for (const event of await this.log.readStream(stream, revision + 1)) {
      if (isLedgerEvent(event)) doc = foldLedgerBalances(doc, event, teamId);
      revision = event.revision;
    }
    this.keep(teamId, { doc, revision });
    return doc;
  }

  private async fromReadModel(teamId: string, stream: string): Promise<Folded> {
    const projected = await this.store
      .collection<LedgerBalancesDoc & { _streams?: Record<string, number> }>(LEDGER_BALANCES)
      .findOne({ _id: teamId });
    const revision = projected ? appliedRevision(projected, stream) : -1;
    // A document without the stream in its memo cannot say what it holds: fold from the start.
    return revision < 0 || !projected
      ? { doc: null, revision: -1 }
      : { doc: withoutMeta<LedgerBalancesDoc>(projected), revision };
  }

  private keep(teamId: string, folded: Folded): void {
    this.folded.delete(teamId);
    this.folded.set(teamId, folded);
    if (this.folded.size > TEAM_CREDITS_KEPT) this.folded.delete(this.folded.keys().next().value!);
  }
}
