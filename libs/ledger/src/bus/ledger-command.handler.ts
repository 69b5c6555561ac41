import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  BusListener,
  commandTopic,
  MESSAGE_BUS,
  type BusMessage,
  type MessageBus,
  type Subscription,
} from '@analyst/platform';
import type { LedgerCommandMessage, LedgerContext } from '@analyst/contracts';
import { LedgerError } from '@analyst/domain-ledger';
import { toErrorReply } from '../ledger-error.mapping';
import { LedgerService } from '../ledger.service';
import { LedgerMetrics } from '../metrics/ledger-metrics';

export const LEDGER_SERVICE_GROUP = 'ledger';

/**
 * Serves `analyst.commands.ledger`: request-reply keyed by team id, so one team's commands run in
 * order. Rule breaks come back as `{ error: { code, message } }`; anything else fails the request.
 */
@Injectable()
export class LedgerCommandHandler extends BusListener {
  private readonly logger = new Logger('LedgerCommands');

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

  async handle(message: BusMessage): Promise<unknown> {
    const { type, payload } = message as unknown as LedgerCommandMessage;
    const { teamId, ...command } = (payload ?? {}) as unknown as { teamId: string } & Record<string, unknown>;
    const ctx: LedgerContext = {
      correlationId: message.headers['correlation-id'] ?? message.headers['x-correlation-id'] ?? message.id,
      causationId: message.id,
      teamId,
    };
    try {
      switch (type) {
        case 'ReserveCredits':
          return await this.ledger.reserve(teamId, command as never, ctx);
        case 'SettleCredits':
          return await this.ledger.settle(teamId, command as never, ctx);
        case 'RefundCredits':
          return await this.ledger.refund(teamId, command as never, ctx);
        case 'GrantCredits':
          return await this.ledger.grant(teamId, command as never, ctx);
        default:
          this.metrics?.commandError(type, 'invalid_command');
          return toErrorReply(
            new LedgerError('invalid_command', `unknown ledger command type ${String(type)}`),
          );
      }
    } catch (error) {
      if (error instanceof LedgerError) {
        this.metrics?.commandError(type, error.code);
        return toErrorReply(error);
      }
      this.metrics?.commandError(type, 'internal');
      this.logger.error(`ledger command ${String(type)} for ${teamId} failed: ${String(error)}`);
      throw error;
    }
  }
}
