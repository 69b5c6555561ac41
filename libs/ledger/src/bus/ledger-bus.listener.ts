import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  BusListener,
  commandTopic,
  MESSAGE_BUS,
  type BusMessage,
  type MessageBus,
  type Subscription,
} from '@analyst/platform';
import type {
  LedgerBusReply,
  LedgerBusRequest,
  LedgerBusRequestType,
  LedgerContext,
} from '@analyst/contracts';
import { LedgerError } from '@analyst/domain-ledger';
import { toErrorReply } from '../ledger-error.mapping';
import { LedgerService } from '../ledger.service';
import { LedgerMetrics } from '../metrics/ledger-metrics';
import { parseLedgerBusRequest } from './ledger-bus-request.parser';

export const LEDGER_SERVICE_GROUP = 'ledger';

/**
 * Serves `analyst.commands.ledger`: request-reply keyed by team id, so one team's commands run in
 * order. Each message is parsed into a `LedgerBusRequest` and handed to the LedgerService method of
 * its type. Rule breaks (a malformed message included) come back as `{ error: { code, message } }`;
 * anything else fails the request.
 */
@Injectable()
export class LedgerBusListener extends BusListener {
  private readonly logger = new Logger('LedgerBusListener');

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly ledger: LedgerService,
    @Optional() private readonly metrics?: LedgerMetrics,
  ) {
    super();
  }

  protected listen(): Promise<Subscription> {
    return this.bus.serve(commandTopic('ledger'), LEDGER_SERVICE_GROUP, (message) => this.handle(message));
  }

  async handle(message: BusMessage): Promise<LedgerBusReply<LedgerBusRequestType>> {
    try {
      const request = parseLedgerBusRequest(message.type, message.payload);
      return await this.serveRequest(request, {
        correlationId: message.headers['correlation-id'] ?? message.headers['x-correlation-id'] ?? message.id,
        causationId: message.id,
        teamId: request.payload.teamId,
      });
    } catch (error) {
      if (error instanceof LedgerError) {
        this.metrics?.commandError(message.type, error.code);
        return toErrorReply(error);
      }
      this.metrics?.commandError(message.type, 'internal');
      this.logger.error(`ledger command ${message.type} for ${message.key} failed: ${String(error)}`);
      throw error;
    }
  }

  private async serveRequest(
    request: LedgerBusRequest,
    ctx: LedgerContext,
  ): Promise<LedgerBusReply<LedgerBusRequestType>> {
    switch (request.type) {
      case 'ReserveCredits': {
        const { teamId, ...command } = request.payload;
        return this.ledger.reserve(teamId, command, ctx);
      }
      case 'SettleCredits': {
        const { teamId, ...command } = request.payload;
        return this.ledger.settle(teamId, command, ctx);
      }
      case 'RefundCredits': {
        const { teamId, ...command } = request.payload;
        return this.ledger.refund(teamId, command, ctx);
      }
      case 'GrantCredits': {
        const { teamId, ...command } = request.payload;
        return this.ledger.grant(teamId, command, ctx);
      }
      default: {
        const _never: never = request;
        return _never;
      }
    }
  }
}
