import { Inject, Injectable } from '@nestjs/common';
import {
  type CreditBalances,
  type GrantCreditsCommand,
  type GrantResult,
  type LedgerContext,
  type LedgerEvent,
  type RefundCreditsCommand,
  type RefundResult,
  type ReserveCreditsCommand,
  type ReserveResult,
  type SettleCreditsCommand,
  type SettleResult,
} from '@analyst/contracts';
import { LedgerError, type LedgerAnswer, type LedgerCommand, type LedgerState } from '@analyst/domain-ledger';
import {
  CLOCK,
  KeyedQueue,
  ProjectionService,
  READ_STORE,
  type Clock,
  type CommandOutcome,
  type ReadStore,
} from '@analyst/platform';
import { readTeamCreditsAt } from '@analyst/ledger-read';
import { LedgerCommands } from './ledger-commands';

/** Each answer kind's result, by kind. */
type AnswerResults = { [A in LedgerAnswer as A['kind']]: A['result'] };
type AnswerOf<K extends LedgerAnswer['kind']> = AnswerResults[K];

type LedgerOutcome = CommandOutcome<LedgerState, LedgerEvent>;

/**
 * The ledger's write side for other services and the admin API. Each method is idempotent by
 * `commandId`: a repeat writes nothing and returns the first answer.
 *
 * Commands go through LedgerCommands, the team stream bound to the ledger decider on the shared
 * CommandRunner (expected-revision append, reload and decide again on a concurrent writer, trace
 * context on the events, states caught up rather than refolded), one at a time per team in this
 * process (a keyed queue).
 */
@Injectable()
export class LedgerService {
  private readonly queue = new KeyedQueue();
  private lastPosition = -1;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly teams: LedgerCommands,
    private readonly projections: ProjectionService,
  ) {}

  async grant(teamId: string, command: GrantCreditsCommand, ctx: LedgerContext): Promise<GrantResult> {
    return this.answer(teamId, { type: 'GrantCredits', data: { ...command, at: this.now() } }, ctx, 'grant');
  }

  async reserve(teamId: string, command: ReserveCreditsCommand, ctx: LedgerContext): Promise<ReserveResult> {
    return this.answer(
      teamId,
      { type: 'ReserveCredits', data: { ...command, at: this.now() } },
      ctx,
      'reserve',
    );
  }

  async settle(teamId: string, command: SettleCreditsCommand, ctx: LedgerContext): Promise<SettleResult> {
    return this.answer(
      teamId,
      { type: 'SettleCredits', data: { ...command, at: this.now() } },
      ctx,
      'settle',
    );
  }

  async refund(teamId: string, command: RefundCreditsCommand, ctx: LedgerContext): Promise<RefundResult> {
    return this.answer(
      teamId,
      { type: 'RefundCredits', data: { ...command, at: this.now() } },
      ctx,
      'refund',
    );
  }

  /** The team's monthly MAP allotment (from its plan or an operator override), applied to this month too. */
  async setMapAllotment(
    teamId: string,
    command: { commandId: string; allotment: number },
    ctx: LedgerContext,
  ): Promise<AnswerOf<'allotment'>> {
    return this.answer(
      teamId,
      { type: 'SetMapAllotment', data: { ...command, at: this.now() } },
      ctx,
      'allotment',
    );
  }

  /** Expires last month's MAPs and grants this month's when the month has turned; otherwise nothing. */
  async resetMaps(teamId: string, ctx: LedgerContext): Promise<boolean> {
    const outcome = await this.execute(teamId, { type: 'ResetMaps', data: { at: this.now() } }, ctx);
    return outcome.events.length > 0;
  }

  /**
   * Balances from the read model as of the clock's month, as `GET /team` shows them: a MAP reset
   * that is due but not yet written is applied (see `readTeamCreditsAt`).
   */
  async balances(teamId: string): Promise<CreditBalances> {
    return readTeamCreditsAt(this.store, teamId, this.clock.now());
  }

  /** The aggregate itself, from the log (for checks that must not trust a read model). */
  async state(teamId: string): Promise<LedgerState> {
    return (await this.teams.state(teamId)).state;
  }

  /** Read-your-writes: waits until the read models include every ledger event this process wrote. */
  async caughtUp(timeoutMs = 5000): Promise<void> {
    await this.projections.waitFor(this.lastPosition, timeoutMs);
  }

  private now(): string {
    return this.clock.now().toISOString();
  }

  private async execute(teamId: string, command: LedgerCommand, ctx: LedgerContext): Promise<LedgerOutcome> {
    if (typeof teamId !== 'string' || teamId.length === 0)
      throw new LedgerError('invalid_command', 'teamId must be a non-empty string');
    const outcome = await this.run(teamId, command, { ...ctx, teamId });
    if (outcome.position > this.lastPosition) this.lastPosition = outcome.position;
    return outcome;
  }

  /** Runs one command after the team's earlier ones; its events carry the command's `at`. */
  private run(teamId: string, command: LedgerCommand, ctx: LedgerContext): Promise<LedgerOutcome> {
    return this.queue.push(teamId, () => this.teams.handle(teamId, command, ctx));
  }

  /** Runs a command that carries an id (all but ResetMaps) and returns the answer recorded for it. */
  private async answer<K extends LedgerAnswer['kind']>(
    teamId: string,
    command: Exclude<LedgerCommand, { type: 'ResetMaps' }>,
    ctx: LedgerContext,
    kind: K,
  ): Promise<AnswerOf<K>> {
    const outcome = await this.execute(teamId, command, ctx);
    const answer = outcome.state.answers.get(command.data.commandId);
    if (!answer || !isAnswerOf(answer, kind))
      throw new Error(`ledger recorded no ${kind} answer for the command`);
    return answer.result;
  }
}

/** The answer of a command of this kind: its kind says which result it carries. */
function isAnswerOf<K extends LedgerAnswer['kind']>(
  answer: LedgerAnswer,
  kind: K,
): answer is LedgerAnswer & { result: AnswerOf<K> } {
  return answer.kind === kind;
}
