import { Inject, Injectable } from '@nestjs/common';
import type { CreditSource } from '@analyst/contracts';
import { readTeamCreditsAt } from '@analyst/ledger-read';
import { CLOCK, READ_STORE, type Clock, type ReadStore } from '@analyst/platform';
import { LedgerClient } from '../pipeline/ledger-client';
import { IntakeError } from '../request/intake-error';

/**
 * Step 6 of the add path, before anything is written: 402 when not even one new post can be paid
 * for, 503 when the broker cannot carry the reservations. Refresh and account discovery ask
 * `canFundOne` themselves (a refresh's free posts, a discovery that fails its job instead).
 */
@Injectable()
export class FundCheck {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly ledger: LedgerClient,
  ) {}

  /** Nothing to check when no post is new; otherwise one unit must be fundable and the ledger reachable. */
  async run(
    teamId: string,
    credits: { source: CreditSource; perPost: number },
    newPosts: number,
  ): Promise<void> {
    if (newPosts === 0) return;
    if (!(await this.canFundOne(teamId, credits.source, credits.perPost))) {
      throw new IntakeError(
        'insufficient_credits',
        `insufficient credits: ${newPosts} post(s) at ${credits.perPost} credit(s) each cannot be funded`,
      );
    }
    // A broker that cannot carry the reservations refuses the request here (503), before the claim.
    await this.ledger.checkReachable();
  }

  /**
   * Can at least one post be paid for? Read from the ledger's balances read model as of now: in a
   * month the stored balances have not reached yet, the month's MAPs count (the reserve that
   * follows resets the month before it reserves).
   */
  async canFundOne(teamId: string, source: CreditSource, unitCost: number): Promise<boolean> {
    const credits = await readTeamCreditsAt(this.store, teamId, this.clock.now());
    const available = source === 'adhoc' ? credits.adhoc : credits.maps + credits.adhoc;
    return available >= unitCost;
  }
}
