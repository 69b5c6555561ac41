import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';
import { ROUTE_POLICIES } from '@analyst/contracts';
import { API_PREFIX, openApi } from '@analyst/platform';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_PING_TYPE } from '@analyst/webhooks';

const { int, nullable, obj, oneOfStrings, ref, str, timestamp } = openApi;

/**
 * Push is an extension of the spec (issue 39): the spec leaves events "not shown". Every part of the
 * document that belongs to it (the notifier's routes, the `webhooks` it sends, their payload schemas)
 * carries this mark, so a reader or a tool can tell the spec's surface from ours.
 */
export const PUSH_EXTENSION_MARK = 'x-analyst-extension';
export const PUSH_EXTENSION = 'push';
const marked = <T extends object>(part: T): T => ({ ...part, [PUSH_EXTENSION_MARK]: PUSH_EXTENSION });

const relativePath = (example: string) =>
  str(
    `Where the whole object is, relative to \`{base_url}\` (as the spec's \`comments.path\`), e.g. \`${example}\`: GET it for the full answer.`,
  );

/** The payload schemas, with the fields `toWebhookEvent` (libs/webhooks/src/webhook-events.ts) builds. */
const contentJobData = obj(
  {
    object: oneOfStrings(['content_job']),
    id: str('The content job (`cj_…`).'),
    status: oneOfStrings(['completed', 'partial', 'failed']),
    error: nullable(
      obj({ code: str(), message: str() }, ['code', 'message'], {
        description: 'On failed jobs: the code and message `GET /content/jobs/{jobId}` carries.',
      }),
    ),
    completedAt: timestamp(),
    path: relativePath('/content/jobs/cj_…'),
  },
  undefined,
  { description: 'A content job that ended.' },
);

const analysisData = obj(
  {
    object: oneOfStrings(['analysis']),
    id: str('The analysis.'),
    status: oneOfStrings(['ready', 'failed']),
    postCount: nullable(int('Posts in the analysis scope; null when it failed.')),
    totalComments: nullable(int('Comments of those posts; null when it failed.')),
    matchedComments: nullable(int('Comments the filters and search matched; null when it failed.')),
    error: nullable(obj({ message: str() }, ['message'], { description: 'On failed analyses.' })),
    completedAt: timestamp(),
    path: relativePath('/analyses/an_…'),
  },
  undefined,
  { description: 'An analysis that ended (a snapshot is ready when created).' },
);

const postData = obj(
  {
    object: oneOfStrings(['post']),
    id: str('The post.'),
    status: oneOfStrings(['complete']),
    dataVersion: int('The post data version that is now complete.', { minimum: 1 }),
    reason: oneOfStrings(['added', 'refreshed'], '`added` for version 1, `refreshed` after.'),
    totalComments: int(),
    jobId: str('The content job that asked for this version.'),
    updatedAt: timestamp(),
    path: relativePath('/posts/{postId}/analysis'),
  },
  undefined,
  { description: "A post's new data version, scored (after an add or a refresh). Never comment bodies." },
);

const pingData = obj(
  {
    object: oneOfStrings(['webhook_endpoint']),
    id: str('The endpoint pinged (`we_…`).'),
    path: relativePath('/webhooks/we_…'),
  },
  undefined,
  { description: 'The endpoint `POST /webhooks/{webhookId}/ping` named.' },
);

const eventOf = (types: readonly string[], data: string, description: string): SchemaObject =>
  marked(
    obj(
      {
        id: str(
          '`evt_…`, derived from the log: the same fact always has the same id. Delivery is at least once: deduplicate on it.',
        ),
        type: oneOfStrings(types),
        createdAt: timestamp('When the fact was recorded.'),
        teamId: str('The team the event belongs to.'),
        data: ref(data),
      },
      undefined,
      { description: `Extension of the spec (push): ${description}` },
    ),
  );

const CONTENT_JOB_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('content_job.'));
const ANALYSIS_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('analysis.'));
const POST_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t.startsWith('post.'));

/** Which event schema carries each type a delivery can have. */
const EVENT_SCHEMA_OF_TYPE: Record<string, string> = {
  ...Object.fromEntries(CONTENT_JOB_TYPES.map((t) => [t, 'ContentJobWebhookEvent'])),
  ...Object.fromEntries(ANALYSIS_TYPES.map((t) => [t, 'AnalysisWebhookEvent'])),
  ...Object.fromEntries(POST_TYPES.map((t) => [t, 'PostUpdatedWebhookEvent'])),
  [WEBHOOK_PING_TYPE]: 'WebhookPingEvent',
};

export const PUSH_OPENAPI_SCHEMAS: Record<string, SchemaObject> = {
  WebhookContentJobData: marked(contentJobData),
  WebhookAnalysisData: marked(analysisData),
  WebhookPostData: marked(postData),
  WebhookPingData: marked(pingData),
  ContentJobWebhookEvent: eventOf(CONTENT_JOB_TYPES, 'WebhookContentJobData', 'A content job ended.'),
  AnalysisWebhookEvent: eventOf(ANALYSIS_TYPES, 'WebhookAnalysisData', 'An analysis ended.'),
  PostUpdatedWebhookEvent: eventOf(POST_TYPES, 'WebhookPostData', "A post's new data version is complete."),
  WebhookPingEvent: eventOf(
    [WEBHOOK_PING_TYPE],
    'WebhookPingData',
    'Sent to one endpoint by `POST /webhooks/{webhookId}/ping`, whatever it subscribed to; never on `GET /events`.',
  ),
  WebhookEvent: marked({
    description:
      'Extension of the spec (push). What a webhook delivery carries as its body and what each `GET /events` frame carries in `data:`, told apart by `type`.',
    oneOf: [...new Set(Object.values(EVENT_SCHEMA_OF_TYPE))].map(ref),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(
        Object.entries(EVENT_SCHEMA_OF_TYPE).map(([type, schema]) => [
          type,
          `#/components/schemas/${schema}`,
        ]),
      ),
    },
  }),
};

const SIGNATURE_DESCRIPTION =
  '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the endpoint secret (`whsec_…`, its UTF-8 bytes). ' +
  'One `v1` per active secret: after `rotate-secret` the replaced secret signs for 24 h more. ' +
  'Verify the raw bytes before parsing them and refuse a `t` more than 5 minutes away (`verifyWebhookSignature` in the TypeScript client, `verify_webhook_signature` in the Python one). Unknown schemes (a later `v2`) are to be skipped.';

const WEBHOOK_HEADERS = [
  {
    name: 'Analyst-Signature',
    in: 'header' as const,
    required: true,
    description: SIGNATURE_DESCRIPTION,
    schema: str(undefined, { pattern: '^t=\\d+(,[a-z0-9]+=[^,]+)+$' }),
  },
  {
    name: 'Analyst-Webhook-Id',
    in: 'header' as const,
    required: true,
    description: "The event's id, as in the body.",
    schema: str(),
  },
  {
    name: 'Analyst-Webhook-Type',
    in: 'header' as const,
    required: true,
    description: "The event's type, as in the body.",
    schema: str(),
  },
  {
    name: 'Analyst-Webhook-Attempt',
    in: 'header' as const,
    required: true,
    description: 'Which attempt of this delivery this is, from 1.',
    schema: str(undefined, { pattern: '^[1-9]\\d*$' }),
  },
];

const DELIVERY_RULES =
  'A 2xx answered within 10 s is delivered. Anything else (another status, a redirect, which is never followed, a timeout, a refused connection) is retried with exponential backoff and jitter for 72 h, then given up; an endpoint whose every attempt failed for 72 h is disabled. Only the first 1 KB of an answer is kept.';

/** The OpenAPI 3.1 `webhooks` entry of one event type: the POST Analyst sends to a registered endpoint. */
function webhookOperation(type: string): Record<string, unknown> {
  const schema = EVENT_SCHEMA_OF_TYPE[type];
  const ping = type === WEBHOOK_PING_TYPE;
  return marked({
    post: marked({
      operationId: `webhook_${type.replace('.', '_')}`,
      summary: ping ? 'A ping asked for with POST /webhooks/{webhookId}/ping' : `The ${type} event`,
      description: `${ping ? 'Sent to the one endpoint pinged.' : `Sent to every endpoint of the team subscribed to \`${type}\` (\`events\` when registering).`} ${DELIVERY_RULES}`,
      tags: ['webhooks'],
      security: [],
      parameters: WEBHOOK_HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              allOf: [ref(schema)],
              properties: { type: { const: type } },
            },
          },
        },
      },
      responses: {
        '2XX': { description: 'Delivered: no further attempt for this event.' },
        '4XX': { description: 'Not delivered: retried (see the description).' },
        '5XX': { description: 'Not delivered: retried (see the description).' },
      },
    }),
  });
}

/**
 * Adds the `webhooks` (one per type a delivery carries, the ping included) and marks the notifier's
 * routes as the extension they are. Registered by NotifierModule as a document amendment.
 */
export function pushIntoOpenApi(document: OpenAPIObject): void {
  const types = [...WEBHOOK_EVENT_TYPES, WEBHOOK_PING_TYPE];
  Object.assign(document, {
    webhooks: Object.fromEntries(types.map((type) => [type, webhookOperation(type)])),
  });
  for (const policy of ROUTE_POLICIES) {
    if (policy.owner !== 'notifier') continue;
    const operation =
      document.paths[`${API_PREFIX}${policy.path}`]?.[
        policy.method.toLowerCase() as 'get' | 'post' | 'delete'
      ];
    if (operation) Object.assign(operation, { [PUSH_EXTENSION_MARK]: PUSH_EXTENSION });
  }
  describeStreamFrames(document);
}

/**
 * One event of the `GET /events` stream, as OpenAPI 3.2 models a `text/event-stream` item (its
 * `itemSchema`: the fields `data`, `event`, `id`, `retry`) and as tools read a 3.1 `schema` of that
 * media type (Schemathesis validates each event against it): `data` is a WebhookEvent as one line of
 * JSON (`contentMediaType`, `contentSchema`).
 */
const STREAM_EVENT: SchemaObject = {
  type: 'object',
  description:
    'Extension of the spec (push). One server-sent event: `id:` (a log position, to send back as Last-Event-ID), `event:` (its type), `data:` (a WebhookEvent as one line of JSON). The stream starts with `retry: 3000` and carries a `: heartbeat` comment every 15 s.',
  properties: {
    id: str('The log position of the event.', { pattern: '^\\d+$' }),
    event: oneOfStrings(WEBHOOK_EVENT_TYPES),
    data: str(undefined, {
      contentMediaType: 'application/json',
      contentSchema: ref('WebhookEvent'),
    } as SchemaObject),
    retry: int('Milliseconds to wait before reconnecting.'),
  },
};

/** Puts STREAM_EVENT on the `GET /events` answer in place of its plain string schema. */
function describeStreamFrames(document: OpenAPIObject): void {
  const stream = document.paths[`${API_PREFIX}/events`]?.get?.responses?.['200'] as
    { content?: Record<string, { schema?: unknown }> } | undefined;
  const media = stream?.content?.['text/event-stream'];
  if (media) media.schema = STREAM_EVENT;
}
