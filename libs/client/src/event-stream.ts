import { AnalystApiError } from './api-error';
import type { components } from './schema';
import { SseParser } from './sse-parser';

/** A pushed event: the body of a webhook delivery and the `data:` of a `GET /events` frame. */
export type WebhookEvent = components['schemas']['WebhookEvent'];
/** The types an endpoint subscribes to and `GET /events` carries (a ping goes to one endpoint only). */
export type WebhookEventType = Exclude<WebhookEvent['type'], 'webhook.ping'>;

/** One event read from `GET /events`. */
export interface StreamedEvent {
  /** The frame's `id:` (a log position): pass it as `lastEventId` to resume after this event. */
  id: string;
  event: WebhookEvent;
}

export interface EventStreamOptions {
  /** Only these types (`types=`); every type when absent. */
  types?: readonly WebhookEventType[];
  /** Resume after this `id:` from an earlier stream (within the server's retention window, 24 h by default). */
  lastEventId?: string;
  /** An Enterprise key's sub-team. */
  teamId?: string;
  /** Ends the iteration (it returns, no error) and closes the connection. */
  signal?: AbortSignal;
  /**
   * Connection attempts in a row that may fail (a dropped connection, a network error, a 503) before
   * the iteration throws; each succeeding connection resets the count (default 10).
   */
  maxReconnects?: number;
}

/** What the stream needs from the client: its fetch (no retries: it reconnects itself), key and waits. */
export interface EventStreamTransport {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  /** Builds the client's error from an answer that is not the stream. */
  errorOf: (response: Response, what: string) => Promise<Error>;
}

/** The server's `retry:` when it sent none yet (design: the first frame is `retry: 3000`). */
const DEFAULT_RETRY_MS = 3000;
const EVENTS_PATH = '/analyst/v1/events';

/** A dropped or refused connection that a later one may overcome. */
class Reconnect extends Error {}

function eventsUrl(baseUrl: string, options: EventStreamOptions): string {
  const query = new URLSearchParams();
  if (options.types && options.types.length > 0) query.set('types', options.types.join(','));
  if (options.teamId) query.set('teamId', options.teamId);
  const qs = query.toString();
  return `${baseUrl.replace(/\/$/, '')}${EVENTS_PATH}${qs ? `?${qs}` : ''}`;
}

/** Aborted as soon as the caller's signal is, or when the iteration stops. */
function linkedController(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
}

/** The wait before a reconnection, cut short by an abort. */
function waitUnlessAborted(
  sleep: (ms: number) => Promise<void>,
  ms: number,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    sleep(ms).then(done, done);
  });
}

/**
 * The events of `GET /events`, in order, across reconnections: when the connection drops (the
 * server restarts, a proxy times out), it waits the server's `retry:` and connects again with
 * `Last-Event-ID`, so no event is missed or repeated. An answer that is not the stream is thrown
 * as the client's error (401/403, 400 for an unknown type, 410 `last_event_id_expired`, 429
 * `too_many_streams`), except a 503 or a network error, which count as a failed reconnection.
 */
export async function* streamEvents(
  transport: EventStreamTransport,
  options: EventStreamOptions = {},
): AsyncGenerator<StreamedEvent> {
  const controller = linkedController(options.signal);
  const maxReconnects = options.maxReconnects ?? 10;
  const url = eventsUrl(transport.baseUrl, options);
  let lastEventId = options.lastEventId ?? '';
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  try {
    for (;;) {
      // One controller per connection, aborted when that connection is done with (a reconnection
      // included), so fetch drops its socket rather than leaving it to the next reconnection.
      const connection = linkedController(controller.signal);
      try {
        const body = await connect(transport, url, lastEventId, connection.signal);
        failures = 0;
        const parser = new SseParser();
        const reader = body.pipeThrough(new TextDecoderStream()).getReader();
        try {
          for (;;) {
            const { value, done } = await reader.read().catch((error: unknown) => {
              throw new Reconnect(`GET ${EVENTS_PATH} was cut: ${String(error)}`);
            });
            if (done) throw new Reconnect(`GET ${EVENTS_PATH} ended`);
            for (const frame of parser.push(value)) {
              lastEventId = frame.id;
              yield { id: frame.id, event: JSON.parse(frame.data) as WebhookEvent };
            }
            // An `id:` on a frame without data still moves the resume point.
            lastEventId = parser.lastEventId || lastEventId;
            retryMs = parser.retryMs ?? retryMs;
          }
        } finally {
          connection.abort();
          await reader.cancel().catch(() => undefined);
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        if (!(error instanceof Reconnect)) throw error;
        failures += 1;
        if (failures > maxReconnects)
          throw new AnalystApiError(
            0,
            'connection_lost',
            `${error.message} (${failures} connections in a row failed)`,
          );
        await waitUnlessAborted(transport.sleep, retryMs, controller.signal);
        if (controller.signal.aborted) return;
      }
    }
  } finally {
    // A `break` out of the loop, an abort or an error: the connection is not left open.
    controller.abort();
  }
}

/** One request for the stream: its body, a Reconnect for a network error or a 503, else the client's error. */
async function connect(
  transport: EventStreamTransport,
  url: string,
  lastEventId: string,
  signal: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  let response: Response;
  try {
    response = await transport.fetch(url, {
      headers: {
        authorization: `Bearer ${transport.apiKey}`,
        accept: 'text/event-stream',
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
      signal,
    });
  } catch (error) {
    throw new Reconnect(`GET ${EVENTS_PATH} failed: ${String(error)}`);
  }
  if (response.status === 503) {
    await response.body?.cancel();
    throw new Reconnect(`GET ${EVENTS_PATH} answered 503`);
  }
  if (response.status !== 200 || !response.body)
    throw await transport.errorOf(response, `GET ${EVENTS_PATH}`);
  return response.body;
}
