import { ApiError } from '@analyst/contracts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@analyst/webhooks';

/** What a client asked of `GET /events`: which types (null: all) and where to resume (null: from now). */
export interface StreamRequest {
  types: ReadonlySet<WebhookEventType> | null;
  lastEventId: number | null;
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

function invalidParameter(message: string): ApiError {
  return new ApiError(400, message, 'invalid_parameter');
}

/**
 * `types`: comma-separated event types (the query parameter given once or repeated); an unknown
 * or empty entry is a 400 naming the known ones.
 */
export function parseTypes(raw: unknown): ReadonlySet<WebhookEventType> | null {
  if (raw === undefined) return null;
  const values = Array.isArray(raw) ? raw : [raw];
  const types = new Set<WebhookEventType>();
  for (const value of values) {
    if (typeof value !== 'string')
      throw invalidParameter('types must be a comma-separated list of event types');
    for (const entry of value.split(',').map((part) => part.trim())) {
      if (!KNOWN_TYPES.has(entry))
        throw invalidParameter(
          `types: ${entry === '' ? 'an empty entry' : `unknown event type "${entry}"`}; known types are ${WEBHOOK_EVENT_TYPES.join(', ')}`,
        );
      types.add(entry as WebhookEventType);
    }
  }
  return types;
}

/**
 * `Last-Event-ID`: the decimal log position of an event this stream sent (its `id:` line). Absent
 * or blank resumes nothing (the stream starts now); anything but a decimal is a 400.
 */
export function parseLastEventId(raw: string | string[] | undefined): number | null {
  if (Array.isArray(raw)) throw invalidParameter('Last-Event-ID was sent more than once; send it once');
  if (raw === undefined || raw.trim() === '') return null;
  const text = raw.trim();
  const position = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(position))
    throw invalidParameter(
      `Last-Event-ID must be the decimal id of an event this stream sent (e.g. 1042), is "${text.slice(0, 40)}"`,
    );
  return position;
}

export function parseStreamRequest(
  types: unknown,
  lastEventId: string | string[] | undefined,
): StreamRequest {
  return { types: parseTypes(types), lastEventId: parseLastEventId(lastEventId) };
}
