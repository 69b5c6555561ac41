import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  CLOCK,
  EventConsumer,
  MESSAGE_BUS,
  causedBy,
  type Clock,
  type MessageBus,
  type Recorded,
} from '@analyst/platform';
import { ContentError } from '@analyst/domain-content';
import {
  POST_OUTCOME_EVENT_TYPES,
  outcomeStatus,
  versionIsCharged,
  type PostOutcomeEvent,
} from '@analyst/contracts';
import { JOBS_GROUP } from '../ingest.tokens';
import { IngestMetrics } from '../metrics/ingest-metrics';
import { countedSubscription } from './counted-subscription';
import { ContentJobCommands } from '../commands/content-job-commands';

/**
 * Records each post outcome on the job that asked for that data version, which settles the job
 * once every member has one, so a job nobody polls still settles. Recording is idempotent per post.
 */
@Injectable()
export class JobSettlementManager extends EventConsumer<PostOutcomeEvent> {
  constructor(
    @Inject(MESSAGE_BUS) bus: MessageBus,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly jobs: ContentJobCommands,
    @Optional() metrics?: IngestMetrics,
  ) {
    super(bus, countedSubscription(metrics, 'JobSettlement', JOBS_GROUP, 'post', POST_OUTCOME_EVENT_TYPES));
  }

  protected async on(event: Recorded<PostOutcomeEvent>): Promise<void> {
    await this.jobs.handle(
      event.data.jobId,
      {
        type: 'RecordPostOutcomes',
        data: {
          outcomes: [
            { postId: event.data.postId, status: outcomeStatus(event), charged: versionIsCharged(event) },
          ],
          at: this.clock.now().toISOString(),
        },
      },
      causedBy(event),
    );
  }

  /** A post is always created after its job opened; a missing job means nothing to settle. */
  protected override alreadyHandled(error: unknown): boolean {
    return error instanceof ContentError && error.code === 'job_not_found';
  }
}
