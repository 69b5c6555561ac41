import { Inject, Injectable, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  CLOCK,
  CommandRunner,
  MESSAGE_BUS,
  eventTopic,
  type BusMessage,
  type Clock,
  type MessageBus,
  type RecordedEvent,
  type Subscription,
} from '@analyst/platform';
import {
  ContentError,
  asPostOutcome,
  contentJobDecider,
  contentJobStream,
  outcomeStatus,
  versionIsCharged,
} from '@analyst/domain-content';
import { JOBS_GROUP } from '../ingest.tokens';
import { countFailures, IngestMetrics } from '../metrics/ingest-metrics';

/**
 * Records each post outcome on the job that asked for that data version, which settles the job
 * once every member has one, so a job nobody polls still settles. Recording is idempotent per post.
 */
@Injectable()
export class JobSettlementManager implements OnModuleInit, OnModuleDestroy {
  private subscription: Subscription | null = null;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runner: CommandRunner,
    @Optional() private readonly metrics?: IngestMetrics,
  ) {}

  async onModuleInit(): Promise<void> {
    this.subscription = await this.bus.subscribe(
      JOBS_GROUP,
      [eventTopic('post')],
      countFailures(this.metrics, JOBS_GROUP, (message: BusMessage) => this.handle(message)),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  async handle(message: BusMessage): Promise<void> {
    const recorded = message.payload as RecordedEvent;
    const event = asPostOutcome(recorded);
    if (!event) return;
    const status = outcomeStatus(event);
    await this.runner
      .run(
        contentJobStream(event.data.jobId),
        contentJobDecider,
        {
          type: 'RecordPostOutcomes',
          outcomes: [{ postId: event.data.postId, status, charged: versionIsCharged(event) }],
          at: this.clock.now().toISOString(),
        },
        {
          correlationId: recorded.metadata.correlationId,
          causationId: recorded.id,
          teamId: recorded.metadata.teamId,
        },
      )
      .catch((error: unknown) => {
        // A post is always created after its job opened; a missing job means nothing to settle.
        if (!(error instanceof ContentError && error.code === 'job_not_found')) throw error;
      });
  }
}
