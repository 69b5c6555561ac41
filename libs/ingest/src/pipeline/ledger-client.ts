import { Inject, Injectable } from '@nestjs/common';
import {
  isLedgerErrorReply,
  type LedgerCommandMessage,
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

/**
 * The ledger as ingest reaches it: request-reply on `commandTopic('ledger')` keyed by team id, so
 * ingest and the ledger can run as separate processes. Every command carries a deterministic id,
 * so a timed-out request is simply sent again: the ledger answers a repeated id with its first answer.
 */
@Injectable()
export class LedgerClient {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(INGEST_OPTIONS) private readonly options: IngestOptions,
  ) {}

  reserve(teamId: string, command: ReserveCreditsCommand, correlationId: string): Promise<ReserveResult> {
    return this.send({ type: 'ReserveCredits', payload: { ...command, teamId } }, correlationId);
  }

  settle(teamId: string, command: SettleCreditsCommand, correlationId: string): Promise<SettleResult> {
    return this.send({ type: 'SettleCredits', payload: { ...command, teamId } }, correlationId);
  }

  refund(teamId: string, command: RefundCreditsCommand, correlationId: string): Promise<RefundResult> {
    return this.send({ type: 'RefundCredits', payload: { ...command, teamId } }, correlationId);
  }

  private async send<T>(message: LedgerCommandMessage, correlationId: string): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        const reply = await this.bus.request<unknown>(
          commandTopic('ledger'),
          {
            id: message.payload.commandId,
            key: message.payload.teamId,
            type: message.type,
            payload: message.payload,
            headers: { 'correlation-id': correlationId },
          },
          this.options.ledgerTimeoutMs,
        );
        if (isLedgerErrorReply(reply)) throw new LedgerRuleError(reply);
        return reply as T;
      } catch (error) {
        if (!(error instanceof RequestTimeoutError) || attempt >= 2) throw error;
      }
    }
  }
}
