import {
  Inject,
  Injectable,
  Optional,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { asPostOutcome, outcomeStatus, versionIsCharged } from '@analyst/domain-content';
import {
  MESSAGE_BUS,
  eventTopic,
  type BusMessage,
  type MessageBus,
  type RecordedEvent,
  type Subscription,
} from '@analyst/platform';
import { CREDITS_GROUP } from '../ingest.tokens';
import { LedgerClient, LedgerRuleError } from './ledger-client';
import { countFailures, IngestMetrics } from '../metrics/ingest-metrics';

/** Already resolved by an earlier delivery (or by the create_failed path): nothing left to do. */
const RESOLVED = new Set(['reservation_already_settled', 'reservation_already_refunded']);

/**
 * Turns a post version's outcome into the ledger command for its reservation: scored with at least
 * one comment → settle 1 unit; zero comments, failed, unreachable, holding, cancelled → refund.
 * The command id is the outcome event's id, so a redelivered event cannot settle twice.
 */
@Injectable()
export class CreditSettlementManager implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('CreditSettlement');
  private subscription: Subscription | null = null;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly ledger: LedgerClient,
    @Optional() private readonly metrics?: IngestMetrics,
  ) {}

  async onModuleInit(): Promise<void> {
    this.subscription = await this.bus.subscribe(
      CREDITS_GROUP,
      [eventTopic('post')],
      countFailures(this.metrics, CREDITS_GROUP, (message: BusMessage) => this.handle(message)),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  async handle(message: BusMessage): Promise<void> {
    const recorded = message.payload as RecordedEvent;
    const event = asPostOutcome(recorded);
    if (!event) return;
    const { reservationId } = event.data;
    const teamId = recorded.metadata.teamId;
    if (!reservationId || !teamId) return; // an included refresh holds no credits
    try {
      if (versionIsCharged(event)) {
        await this.ledger.settle(
          teamId,
          { commandId: recorded.id, reservationId, consumed: 1 },
          recorded.metadata.correlationId,
        );
      } else {
        const status = outcomeStatus(event);
        const reason = status === 'complete' ? 'no_comments' : status;
        await this.ledger.refund(
          teamId,
          { commandId: recorded.id, reservationId, reason },
          recorded.metadata.correlationId,
        );
      }
    } catch (error) {
      if (error instanceof LedgerRuleError && RESOLVED.has(error.code)) return;
      if (error instanceof LedgerRuleError) {
        this.logger.error(
          `ledger refused the outcome of ${recorded.streamId} v${event.data.dataVersion}: ${error.message}`,
        );
        return;
      }
      throw error; // transport failure: the bus delivers the event again
    }
  }
}
