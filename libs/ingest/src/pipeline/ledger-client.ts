import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  isLedgerErrorReply,
  ledgerBusMessage,
  type LedgerBusReply,
  type LedgerBusRequest,
  type LedgerBusRequestType,
  type LedgerBusResult,
  type LedgerErrorReply,
  type RefundCreditsCommand,
  type RefundResult,
  type ReserveCreditsCommand,
  type ReserveResult,
  type SettleCreditsCommand,
  type SettleResult,
} from '@analyst/contracts';
import { commandTopic, MESSAGE_BUS, RequestTimeoutError, type MessageBus } from '@analyst/platform';
import { INGEST_OPTIONS, type IngestOptions } from '../ingest.tokens';

export class LedgerRuleError extends Error {
  override readonly name = 'LedgerRuleError';
  constructor(readonly reply: LedgerErrorReply) {
    super(`${reply.error.code}: ${reply.error.message}`);
  }
  get code(): string {
    return this.reply.error.code;
  }
}

/** How long one ledger call waits for its reply, and what it does when none came. */
export interface LedgerCallBudget {
  /** The first try's wait; a try after it waits the configured ledger timeout. */
  firstTimeoutMs: number;
  /** Tries in all; a try that got no reply is sent again with the same command id. */
  attempts: number;
  /** After a try got no reply, ask the broker first: when it is away the call fails at once (503). */
  checkBrokerAfterTimeout: boolean;
}

/**
 * Inside an HTTP request: a first try of 3 s, then the broker is asked (2 s at most). A broker that
 * died while the request ran is a 503 within about 5 s; a broker that answers means the ledger is
 * only slow (a loaded machine), so the call goes on as background calls do.
 */
export const REQUEST_PATH_LEDGER_BUDGET: LedgerCallBudget = {
  firstTimeoutMs: 3_000,
  attempts: 3,
  checkBrokerAfterTimeout: true,
};

/** How long a request waits, before it writes anything, to learn whether the broker can carry its ledger calls. */
export const BROKER_CHECK_TIMEOUT_MS = 2_000;

/**
 * The ledger as ingest reaches it: request-reply on `commandTopic('ledger')` keyed by team id, so
 * ingest and the ledger can run as separate processes. Every command carries a deterministic id,
 * so a timed-out request is simply sent again: the ledger answers a repeated id with its first answer.
 */
@Injectable()
export class LedgerClient implements OnApplicationBootstrap {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(INGEST_OPTIONS) private readonly options: IngestOptions,
  ) {}

  /**
   * Joins this instance's reply group at start (/readyz waits for it), so the first request's broker
   * check does not pay for the join. A broker that is away now is the first request's business.
   */
  onApplicationBootstrap(): void {
    this.bus.checkReachable?.(this.options.ledgerTimeoutMs).catch(() => undefined);
  }

  /**
   * For request paths, before anything is written: DependencyUnavailableError within
   * BROKER_CHECK_TIMEOUT_MS when the broker cannot carry ledger calls now, so a request refused
   * for it leaves nothing behind.
   */
  async checkReachable(): Promise<void> {
    await this.bus.checkReachable?.(BROKER_CHECK_TIMEOUT_MS);
  }

  reserve(
    teamId: string,
    command: ReserveCreditsCommand,
    correlationId: string,
    budget?: LedgerCallBudget,
  ): Promise<ReserveResult> {
    return this.send({ type: 'ReserveCredits', payload: { ...command, teamId } }, correlationId, budget);
  }

  settle(teamId: string, command: SettleCreditsCommand, correlationId: string): Promise<SettleResult> {
    return this.send({ type: 'SettleCredits', payload: { ...command, teamId } }, correlationId);
  }

  refund(
    teamId: string,
    command: RefundCreditsCommand,
    correlationId: string,
    budget?: LedgerCallBudget,
  ): Promise<RefundResult> {
    return this.send({ type: 'RefundCredits', payload: { ...command, teamId } }, correlationId, budget);
  }

  private async send<K extends LedgerBusRequestType>(
    request: LedgerBusRequest<K>,
    correlationId: string,
    budget: LedgerCallBudget = {
      firstTimeoutMs: this.options.ledgerTimeoutMs,
      attempts: 3,
      checkBrokerAfterTimeout: false,
    },
  ): Promise<LedgerBusResult<K>> {
    const message = ledgerBusMessage(request, { 'correlation-id': correlationId });
    for (let attempt = 1; ; attempt++) {
      try {
        const reply = await this.bus.request<LedgerBusReply<K>>(
          commandTopic('ledger'),
          message,
          attempt === 1 ? budget.firstTimeoutMs : this.options.ledgerTimeoutMs,
        );
        if (isLedgerErrorReply(reply)) throw new LedgerRuleError(reply);
        return reply;
      } catch (error) {
        if (!(error instanceof RequestTimeoutError) || attempt >= budget.attempts) throw error;
        if (budget.checkBrokerAfterTimeout) await this.checkReachable();
      }
    }
  }
}
