import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ApiError } from '@analyst/contracts';
import { CLOCK, EVENT_STORE, type Clock, type EventStore } from '@analyst/platform';
import { EventStream } from './event-stream';
import { EVENT_STREAM_SETTINGS, type EventStreamSettings } from './event-stream-settings';
import { LogTail } from './log-tail';
import type { StreamRequest } from './stream-request';

/**
 * The open event streams of this process: opens one where its request says (now, on the shared
 * tail of the log; or after a `Last-Event-ID` still within the retention window, on a subscription
 * of its own), and ends them all before the HTTP server closes, so a SIGTERM never waits on a stream.
 */
@Injectable()
export class EventStreams implements OnModuleDestroy {
  private readonly logger = new Logger('EventStreams');
  private readonly open = new Set<EventStream>();
  private readonly tail: LogTail;

  constructor(
    @Inject(EVENT_STORE) private readonly log: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_STREAM_SETTINGS) private readonly settings: EventStreamSettings,
  ) {
    this.tail = new LogTail(log);
  }

  /** Opens the team's stream; throws the 400/410 of a `Last-Event-ID` it cannot resume after. */
  async openFor(teamId: string, request: StreamRequest): Promise<EventStream> {
    // From now: on the shared tail, which starts at the head. Resumed: after the given position.
    const after = request.lastEventId === null ? null : await this.resumable(request.lastEventId);
    const stream = new EventStream({
      teamId,
      types: request.types,
      heartbeatMs: this.settings.heartbeatMs,
      stalledReaderMs: this.settings.stalledReaderMs,
      onClosed: (closed) => this.open.delete(closed),
      onError: (error) =>
        this.logger.warn(
          `event stream of team ${teamId} closed: reading the log failed (${error instanceof Error ? error.message : String(error)})`,
        ),
    });
    this.open.add(stream);
    try {
      if (after === null) await stream.startOnTail(this.tail, this.log);
      else await stream.start(this.log, after);
    } catch (error) {
      await stream.close();
      throw error;
    }
    return stream;
  }

  /** Streams open in this process. */
  get count(): number {
    return this.open.size;
  }

  /** Of those, the streams reading the shared tail (the others have a subscription of their own). */
  get onTail(): number {
    return this.tail.readerCount;
  }

  /**
   * `position` as a place to resume after: the events after it were recorded within the retention
   * window (judged by the first one, the oldest the stream would send again); older is 410. Past
   * the head of the log is 400 (no stream sent that id). The first event *after* the position is
   * read rather than the one at it: on EventStoreDB a read after a record's own position is one
   * probe, while a read that includes it starts from the record before (a backward walk).
   */
  private async resumable(position: number): Promise<number> {
    if (position > (await this.log.headPosition()))
      throw new ApiError(
        400,
        `Last-Event-ID ${position} is past the end of the event log: it is not an id this stream sent`,
        'invalid_parameter',
      );
    const next = await this.firstEventAfter(position);
    const oldest = this.clock.now().getTime() - this.settings.retentionMs;
    if (next !== null && Date.parse(next.occurredAt) < oldest) {
      const hours = this.settings.retentionMs / 3_600_000;
      throw new ApiError(
        410,
        `Last-Event-ID ${position} is older than the ${hours} h the stream can resume from; open the stream without it and read what you missed from the API (GET /content/jobs, /analyses, /posts?updated_since=)`,
        'last_event_id_expired',
      );
    }
    return position;
  }

  private async firstEventAfter(position: number): Promise<{ occurredAt: string } | null> {
    for await (const page of this.log.readAll(position, 1)) {
      if (page.length > 0) return { occurredAt: page[0].metadata.occurredAt };
    }
    return null;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.open].map((stream) => stream.close()));
    await this.tail.close();
  }
}
