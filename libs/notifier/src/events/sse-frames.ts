import type { RecordedEvent } from '@analyst/eventsourcing';
import { WEBHOOK_EVENT_TYPES, toWebhookEvent, type WebhookEventType } from '@analyst/webhooks';

/** How long a client waits before it reconnects after the connection drops (the stream's first frame). */
export const RECONNECT_MS = 3000;

export const RETRY_FRAME = `retry: ${RECONNECT_MS}\n\n`;
export const HEARTBEAT_FRAME = ': heartbeat\n\n';

const STREAM_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

interface Mapped {
  teamId: string;
  type: WebhookEventType;
  json: string;
}
/**
 * Each recorded event mapped and serialised once for every stream that reads it: the streams on the
 * shared tail are handed the same page objects, and most of them are of one team.
 */
const MAPPED = new WeakMap<RecordedEvent, Mapped | null>();

function mapped(recorded: RecordedEvent): Mapped | null {
  let found = MAPPED.get(recorded);
  if (found === undefined) {
    const event = toWebhookEvent(recorded);
    found =
      event && STREAM_TYPES.has(event.type)
        ? { teamId: event.teamId, type: event.type as WebhookEventType, json: JSON.stringify(event) }
        : null;
    MAPPED.set(recorded, found);
  }
  return found;
}

/**
 * The frame of one log event for one team's stream, or null when the stream does not carry it:
 * not a webhook event, another team's, a ping (it belongs to one endpoint), or a type not asked
 * for. `id:` is the log position, which `Last-Event-ID` gives back; `data:` the webhook event's
 * JSON on one line (JSON.stringify escapes every line break).
 */
export function eventFrame(
  recorded: RecordedEvent,
  teamId: string,
  types: ReadonlySet<WebhookEventType> | null,
): string | null {
  // Cheap test first: most of the log is other teams' events.
  if (recorded.metadata.teamId !== teamId) return null;
  const event = mapped(recorded);
  if (!event || event.teamId !== teamId) return null;
  if (types && !types.has(event.type)) return null;
  return `id: ${recorded.position}\nevent: ${event.type}\ndata: ${event.json}\n\n`;
}
