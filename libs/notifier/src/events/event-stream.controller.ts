import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  ApiErrorResponses,
  ApiKeyAuth,
  ApiRoute,
  Principal,
  TEAM_NOT_FOUND,
  openApi,
} from '@analyst/platform';
import { WEBHOOK_EVENT_TYPES } from '@analyst/webhooks';
import { RECONNECT_MS } from './sse-frames';
import { parseStreamRequest } from './stream-request';
import { EventStreams } from './event-streams';

/** The answer's headers: an event stream, never cached, never buffered by a proxy (nginx reads the last one). */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

const TYPE_ALTERNATIVES = WEBHOOK_EVENT_TYPES.map((t) => t.replace('.', '\\.')).join('|');
/** `types`: one or more known event types, comma-separated (the route trims each entry). */
const TYPES_PATTERN = `^\\s*(${TYPE_ALTERNATIVES})\\s*(,\\s*(${TYPE_ALTERNATIVES})\\s*)*$`;

/** GET /events: scope webhooks:read, class events_stream (gateway); the open streams per key capped there. */
@ApiTags('events')
@ApiKeyAuth()
@Controller('events')
export class EventStreamController {
  constructor(private readonly streams: EventStreams) {}

  @Get()
  @ApiRoute('GET /events')
  @ApiOperation({
    summary: 'A live stream of the team’s events (server-sent events)',
    description:
      'Scope webhooks:read. Rate class events_stream: the request counts once, however long the stream stays open; a key holds a capped number of open streams (429 too_many_streams). ' +
      `The first frame is \`retry: ${RECONNECT_MS}\`; each event is \`id: <log position>\`, \`event: <type>\`, \`data: <the webhook event JSON>\`; a \`: heartbeat\` comment keeps the connection alive. ` +
      'Without Last-Event-ID the stream starts now; with it, right after that event (within the retention window, 24 h by default). Pings are not on the stream.',
  })
  @ApiQuery({
    name: 'types',
    required: false,
    description: `Comma-separated event types to receive (all when left out): ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
    // The list's grammar, so a schema-valid value is one the route accepts.
    schema: openApi.str(undefined, { pattern: TYPES_PATTERN }),
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The `id` of the last event received: the stream resumes right after it.',
    // Up to 16 digits, trimmed; a blank header is no header.
    schema: openApi.str(undefined, { pattern: '^\\s*\\d{0,16}\\s*$' }),
  })
  @ApiProduces('text/event-stream')
  @ApiResponse({
    status: 200,
    description: 'The event stream (text/event-stream; charset=utf-8), open until the client closes it.',
    content: { 'text/event-stream': { schema: openApi.str() } },
  })
  @ApiErrorResponses({
    400: 'An unknown type in types, or a Last-Event-ID that is not a decimal event id (invalid_parameter)',
    404: TEAM_NOT_FOUND,
    429: 'The key already holds the most open streams it may (too_many_streams, with Retry-After), or a rate limit was hit (rate_limited)',
  })
  @ApiResponse({
    status: 410,
    description: 'Last-Event-ID names an event older than the retention window (last_event_id_expired)',
    schema: openApi.ref('ErrorEnvelope'),
  })
  async stream(
    @Principal() principal: Principal,
    @Query('types') types: unknown,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const stream = await this.streams.openFor(principal.targetTeamId, parseStreamRequest(types, lastEventId));
    // A client gone before the answer left: nothing to send it.
    if (reply.raw.destroyed) {
      await stream.close();
      return;
    }
    void reply.status(200).headers(STREAM_HEADERS).send(stream.body);
  }
}
