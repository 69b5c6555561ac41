import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { RecordedEvent } from '@analyst/eventsourcing';
import { API_PREFIX } from '@analyst/platform';
import { ROUTE_POLICIES } from '@analyst/contracts';
import { toWebhookEvent, WEBHOOK_EVENT_TYPES, type WebhookEvent } from '@analyst/webhooks';
import { PUSH_OPENAPI_SCHEMAS, pushIntoOpenApi } from '../src/openapi/push-openapi';

type Json = any;

const TEAM = 'tm_push';
const AT = '2026-03-10T12:00:00.000Z';

let position = 0;
/** A log event as the store hands it back; `data` carries the fields the mapping reads. */
function recorded(streamId: string, type: string, data: unknown): RecordedEvent {
  position += 1;
  return {
    id: `ev_${String(position).padStart(4, '0')}`,
    type,
    schemaVersion: 1,
    data,
    metadata: { correlationId: 'req_1', causationId: null, teamId: TEAM, occurredAt: AT },
    streamId,
    revision: 0,
    position,
  };
}

/** One log event for every webhook type, each mapped by the real `toWebhookEvent`. */
function everyKindOfEvent(): WebhookEvent[] {
  const events = [
    recorded('contentjob-cj_1', 'JobSettled', { status: 'completed', error: null, at: AT }),
    recorded('contentjob-cj_2', 'JobSettled', { status: 'partial', error: null, at: AT }),
    recorded('contentjob-cj_3', 'JobSettled', {
      status: 'failed',
      error: { code: 'provider_unavailable', message: 'YouTube did not answer' },
      at: AT,
    }),
    recorded('contentjob-cj_4', 'ContentJobFailed', {
      error: { code: 'insufficient_credits', message: 'Not enough credits' },
      at: AT,
    }),
    recorded('analysis-an_1', 'AnalysisCompleted', {
      analysisId: 'an_1',
      at: AT,
      result: { scope: { postCount: 2, totalComments: 1200, matchedComments: 340 } },
    }),
    recorded('analysis-an_2', 'AnalysisFailed', {
      analysisId: 'an_2',
      message: 'search model failed',
      at: AT,
    }),
    recorded('post-p_1', 'PostScored', {
      postId: 'p_1',
      dataVersion: 1,
      jobId: 'cj_1',
      totalComments: 40,
      at: AT,
    }),
    recorded('post-p_1', 'PostScored', {
      postId: 'p_1',
      dataVersion: 2,
      jobId: 'cj_5',
      totalComments: 52,
      at: AT,
    }),
    recorded(`webhookendpoints-${TEAM}`, 'WebhookEndpointPinged', {
      endpointId: 'we_abcdefgh',
      teamId: TEAM,
      pingId: 'png_1',
      at: AT,
    }),
  ];
  return events.map((e) => {
    const mapped = toWebhookEvent(e);
    if (!mapped) throw new Error(`${e.type} mapped to no webhook event`);
    return mapped;
  });
}

function documentWithPush(): OpenAPIObject {
  const document = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      [`${API_PREFIX}/webhooks`]: { post: { responses: {} }, get: { responses: {} } },
      [`${API_PREFIX}/posts`]: { get: { responses: {} } },
      [`${API_PREFIX}/events`]: {
        get: { responses: { '200': { content: { 'text/event-stream': { schema: { type: 'string' } } } } } },
      },
    },
    components: { schemas: { ...PUSH_OPENAPI_SCHEMAS } },
  } as unknown as OpenAPIObject;
  pushIntoOpenApi(document);
  return document;
}

interface WebhookEntry {
  post: {
    parameters: { name: string; required: boolean }[];
    requestBody: { content: { 'application/json': { schema: object } } };
  };
  'x-analyst-extension'?: string;
}

describe('the OpenAPI webhooks (issue 39)', () => {
  const document = documentWithPush();
  const webhooks = (document as unknown as { webhooks: Record<string, WebhookEntry> }).webhooks;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document as object, 'doc');
  const bodyValidator = (type: string) =>
    ajv.compile({
      $ref: `doc#/webhooks/${type.replace(/\//g, '~1')}/post/requestBody/content/application~1json/schema`,
    });

  it('declares one webhook per type a delivery carries: the six subscribable ones and the ping', () => {
    expect(Object.keys(webhooks)).toEqual([...WEBHOOK_EVENT_TYPES, 'webhook.ping']);
    for (const entry of Object.values(webhooks)) {
      expect(entry['x-analyst-extension']).toBe('push');
      expect(entry.post.parameters.map((p) => [p.name, p.required])).toEqual([
        ['Analyst-Signature', true],
        ['Analyst-Webhook-Id', true],
        ['Analyst-Webhook-Type', true],
        ['Analyst-Webhook-Attempt', true],
      ]);
    }
  });

  it("accepts what toWebhookEvent builds for each type under that type's webhook, and under WebhookEvent", () => {
    const events = everyKindOfEvent();
    expect(new Set(events.map((e) => e.type))).toEqual(new Set([...WEBHOOK_EVENT_TYPES, 'webhook.ping']));
    const anyEvent = ajv.compile({ $ref: 'doc#/components/schemas/WebhookEvent' });
    for (const event of events) {
      const body = JSON.parse(JSON.stringify(event)) as WebhookEvent;
      const validate = bodyValidator(event.type);
      expect({ type: event.type, valid: validate(body), errors: validate.errors }).toEqual({
        type: event.type,
        valid: true,
        errors: null,
      });
      expect(anyEvent(body)).toBe(true);
    }
  });

  it('declares exactly the fields the events carry, no more and no fewer', () => {
    const schemas = PUSH_OPENAPI_SCHEMAS as Record<
      string,
      { properties: Record<string, unknown>; required: string[] }
    >;
    const dataSchemaOf: Record<string, string> = {
      content_job: 'WebhookContentJobData',
      analysis: 'WebhookAnalysisData',
      post: 'WebhookPostData',
      webhook_endpoint: 'WebhookPingData',
    };
    for (const event of everyKindOfEvent()) {
      const dataSchema = schemas[dataSchemaOf[event.data.object]];
      expect(Object.keys(event.data).sort()).toEqual(Object.keys(dataSchema.properties).sort());
      expect([...dataSchema.required].sort()).toEqual(Object.keys(dataSchema.properties).sort());
      expect(Object.keys(event).sort()).toEqual(['createdAt', 'data', 'id', 'teamId', 'type']);
    }
  });

  it("refuses a body whose type is another webhook's, or whose data lacks a field", () => {
    const [completed, , , , ready] = everyKindOfEvent();
    expect(bodyValidator('content_job.partial')(completed)).toBe(false);
    expect(bodyValidator('analysis.ready')(completed)).toBe(false);
    const { path: _path, ...withoutPath } = ready.data;
    expect(bodyValidator('analysis.ready')({ ...ready, data: withoutPath })).toBe(false);
  });

  it("marks the notifier's routes as the extension, and no other route", () => {
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(paths[`${API_PREFIX}/webhooks`].post['x-analyst-extension']).toBe('push');
    expect(paths[`${API_PREFIX}/webhooks`].get['x-analyst-extension']).toBe('push');
    expect(paths[`${API_PREFIX}/posts`].get['x-analyst-extension']).toBeUndefined();
    expect(ROUTE_POLICIES.filter((p) => p.path === '/webhooks').every((p) => p.owner === 'notifier')).toBe(
      true,
    );
  });

  it("names WebhookEvent as the schema of each GET /events frame's data", () => {
    const paths = document.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
    const stream = paths[`${API_PREFIX}/events`].get.responses['200'].content['text/event-stream'];
    expect(stream.schema.type).toBe('object');
    expect(stream.schema.properties.data).toMatchObject({
      type: 'string',
      contentMediaType: 'application/json',
      contentSchema: { $ref: '#/components/schemas/WebhookEvent' },
    });
    expect(stream.schema.properties.event.enum).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect((paths[`${API_PREFIX}/events`].get as Json)['x-analyst-extension']).toBe('push');
  });
});
