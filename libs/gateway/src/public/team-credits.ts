import type { CreditBalances } from '@analyst/contracts';
import { LEDGER_BALANCES, teamCreditsAt, type LedgerBalancesDoc } from '@analyst/ledger-read';
import type { ReadStore } from '@analyst/platform';
import { GroupCommit } from '../batching/group-commit';

/**
 * `credits` of `GET /team`, from the ledger's balances read model (zeros before the ledger has seen
 * the team), as of each request's `at`: in a new UTC month the MAPs are that month's allotment even
 * before the reset has been written.
 *
 * Concurrent requests for one team share a read (GroupCommit): a request that arrives while a read
 * is out waits for the next one, so every request still reads the balances after it arrived. Under
 * load that is one lookup per batch where it was one per request.
 */
export class TeamCreditsReader {
  private readonly lanes: GroupCommit<Date, CreditBalances>;

  constructor(store: ReadStore) {
    this.lanes = new GroupCommit(async (teamId, ats) => {
      const doc = await store.collection<LedgerBalancesDoc>(LEDGER_BALANCES).findOne({ _id: teamId });
      return ats.map((at) => teamCreditsAt(doc, at));
    });
  }

  read(teamId: string, at: Date): Promise<CreditBalances> {
    return this.lanes.submit(teamId, at);
  }
}
