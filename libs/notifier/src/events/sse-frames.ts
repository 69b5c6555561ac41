import type { RecordedEvent } from '@analyst/eventsourcing';
import { WEBHOOK_EVENT_TYPES, toWebhookEvent, type WebhookEventType } from '@analyst/webhooks';

/** How long a client waits before it reconnects after the connection drops (the stream's first frame). */
export const RECONNECT_MS = 3000;

export const RETRY_FRAME = `retry: ${RECONNECT_MS}\n\n`;
export const HEARTBEAT_FRAME = ': heartbeat\n\n';

const STREAM_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

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
  const event = toWebhookEvent(recorded);
  if (!event || event.teamId !== teamId || !STREAM_TYPES.has(event.type)) return null;
  if (types && !types.has(event.type as WebhookEventType)) return null;
  return `id: ${recorded.position}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
