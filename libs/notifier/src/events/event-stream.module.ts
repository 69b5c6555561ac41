import { Module } from '@nestjs/common';
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
export class EventStreamModule {}
