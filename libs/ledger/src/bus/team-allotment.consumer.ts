import { Inject, Injectable } from '@nestjs/common';
import type { TeamCreated, TeamMapAllotmentSet, TeamPlanChanged } from '@analyst/contracts';
import {
  EventConsumer,
  MESSAGE_BUS,
  causedBy,
  eventTopic,
  type MessageBus,
  type Recorded,
} from '@analyst/platform';
import { LedgerService } from '../ledger.service';

export const LEDGER_MAPS_GROUP = 'ledger-maps';

/** The team events that set a team's monthly MAP allotment. */
export type AllotmentEvent = TeamCreated | TeamPlanChanged | TeamMapAllotmentSet;

/**
 * Keeps each team's monthly MAP allotment in step with its team events. The team event's id is
 * the ledger command id, so a redelivered event is a no-op.
 */
@Injectable()
export class TeamAllotmentConsumer extends EventConsumer<AllotmentEvent> {
  constructor(
    @Inject(MESSAGE_BUS) bus: MessageBus,
    private readonly ledger: LedgerService,
  ) {
    super(bus, {
      name: 'TeamAllotment',
      group: LEDGER_MAPS_GROUP,
      topics: [eventTopic('team')],
      types: ['TeamCreated', 'TeamPlanChanged', 'TeamMapAllotmentSet'],
    });
  }

  protected async on(event: Recorded<AllotmentEvent>): Promise<void> {
    const { teamId, monthlyMapAllotment } = event.data;
    await this.ledger.setMapAllotment(
      teamId,
      { commandId: event.id, allotment: monthlyMapAllotment },
      causedBy(event, teamId),
    );
  }
}
