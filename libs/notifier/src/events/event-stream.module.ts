import { Module, Optional, type OnModuleInit } from '@nestjs/common';
import { HttpMetrics } from '@analyst/platform';
import { registerEventStreamMetrics } from './event-stream-metrics';
import { EVENT_STREAM_SETTINGS, eventStreamSettingsFromEnv } from './event-stream-settings';
import { EventStreamController } from './event-stream.controller';
import { EventStreams } from './event-streams';

/** `GET /events`: the team's webhook events as server-sent events, followed live from the log. */
@Module({
  controllers: [EventStreamController],
  providers: [
    { provide: EVENT_STREAM_SETTINGS, useFactory: () => eventStreamSettingsFromEnv() },
    EventStreams,
  ],
  exports: [EventStreams],
})
export class EventStreamModule implements OnModuleInit {
  constructor(
    private readonly streams: EventStreams,
    @Optional() private readonly metrics?: HttpMetrics,
  ) {}

  onModuleInit(): void {
    if (this.metrics) registerEventStreamMetrics(this.metrics.registry, this.streams);
  }
}
