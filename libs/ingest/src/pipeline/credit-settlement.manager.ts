import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  POST_OUTCOME_EVENT_TYPES,
  outcomeStatus,
  versionIsCharged,
  type PostOutcomeEvent,
} from '@analyst/contracts';
import { EventConsumer, MESSAGE_BUS, type MessageBus, type Recorded } from '@analyst/platform';
import { CREDITS_GROUP } from '../ingest.tokens';
import { LedgerClient, LedgerRuleError } from './ledger-client';
import { IngestMetrics } from '../metrics/ingest-metrics';
import { countedSubscription } from './counted-subscription';

/** Already resolved by an earlier delivery (or by the create_failed path): nothing left to do. */
const RESOLVED = new Set(['reservation_already_settled', 'reservation_already_refunded']);

/**
 * Turns a post version's outcome into the ledger command for its reservation: scored with at least
 * one comment → settle 1 unit; zero comments, failed, unreachable, holding, cancelled → refund.
 * The command id is the outcome event's id, so a redelivered event cannot settle twice.
 */
@Injectable()
export class CreditSettlementManager extends EventConsumer<PostOutcomeEvent> {
  constructor(
    @Inject(MESSAGE_BUS) bus: MessageBus,
    private readonly ledger: LedgerClient,
    @Optional() metrics?: IngestMetrics,
  ) {
    super(
      bus,
      countedSubscription(metrics, 'CreditSettlement', CREDITS_GROUP, 'post', POST_OUTCOME_EVENT_TYPES),
    );
  }

  protected async on(event: Recorded<PostOutcomeEvent>): Promise<void> {
    const { reservationId } = event.data;
    const teamId = event.metadata.teamId;
    if (!reservationId || !teamId) return; // an included refresh holds no credits
    const { correlationId } = event.metadata;
    if (versionIsCharged(event)) {
      await this.ledger.settle(teamId, { commandId: event.id, reservationId, consumed: 1 }, correlationId);
    } else {
      const status = outcomeStatus(event);
      const reason = status === 'complete' ? 'no_comments' : status;
      await this.ledger.refund(teamId, { commandId: event.id, reservationId, reason }, correlationId);
    }
  }

  protected override alreadyHandled(error: unknown): boolean {
    return error instanceof LedgerRuleError && RESOLVED.has(error.code);
  }

  /** Any other rule the ledger states (e.g. an unknown reservation) will not change on redelivery. */
  protected override refused(error: unknown): boolean {
    return error instanceof LedgerRuleError;
  }
}
