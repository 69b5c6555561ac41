import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { TeamEvent } from '@analyst/contracts';
import {
  eventTopic,
  MESSAGE_BUS,
  type BusMessage,
  type EventMessage,
  type MessageBus,
  type Subscription,
} from '@analyst/platform';
import { LedgerService } from '../ledger.service';

export const LEDGER_MAPS_GROUP = 'ledger-maps';

/**
 * Keeps each team's monthly MAP allotment in step with its team events. The team event's id is
 * the ledger command id, so a redelivered event is a no-op.
 */
@Injectable()
export class TeamAllotmentConsumer implements OnModuleInit, OnModuleDestroy {
  private subscription: Subscription | null = null;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly ledger: LedgerService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.subscription = await this.bus.subscribe(LEDGER_MAPS_GROUP, [eventTopic('team')], (message) =>
      this.handle(message),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  async handle(message: BusMessage): Promise<void> {
    const recorded = message.payload as EventMessage;
    const event = { type: recorded.type, data: recorded.data } as TeamEvent;
    if (
      event.type !== 'TeamCreated' &&
      event.type !== 'TeamPlanChanged' &&
      event.type !== 'TeamMapAllotmentSet'
    )
      return;
    const ctx = {
      correlationId: recorded.metadata.correlationId,
      causationId: recorded.id,
      teamId: event.data.teamId,
    };
    await this.ledger.setMapAllotment(
      event.data.teamId,
      { commandId: recorded.id, allotment: event.data.monthlyMapAllotment },
      ctx,
    );
  }
}
