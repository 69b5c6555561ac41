import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { PostScored } from '@analyst/contracts';
import type { EventStore, RecordedEvent } from '@analyst/eventsourcing';
import {
  checkWebhookUrl,
  webhookEndpointsStream,
  type WebhookEndpointPinged,
  type InMemoryWebhookEndpoints,
  type WebhookEventType,
  type WebhookNetworkPolicy,
} from '../src';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  eventId: string;
}

/**
 * A real HTTP receiver on 127.0.0.1. `answer` gives the status of each request (or a promise of
 * it, to hold a request open); it can be stopped and started again on the same port.
 */
export class LoopbackReceiver {
  readonly received: Received[] = [];
  private server: http.Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly answer: (got: Received, index: number) => number | Promise<number>) {}

  async start(port = this.port): Promise<number> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const got = { path: req.url ?? '', headers: req.headers, body, eventId: JSON.parse(body).id };
        this.received.push(got);
        const status = await this.answer(got, this.received.length - 1);
        res.writeHead(status).end(status >= 400 ? 'receiver error' : 'ok');
      });
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
}

/** The log as the engine reads it: events appended here get the next position. */
export class ArrayLog implements Pick<EventStore, 'readAll'> {
  readonly events: RecordedEvent[] = [];

  /** A post's data version complete (`post.updated`), recorded at `at` for the team. */
  postScored(teamId: string, postId: string, at: string): RecordedEvent {
    const position = this.events.length;
    const event: RecordedEvent<'PostScored', PostScored['data']> = {
      id: `ev_${String(position).padStart(6, '0')}`,
      type: 'PostScored',
      schemaVersion: 1,
      streamId: `post-${postId}`,
      revision: 0,
      position,
      data: {
        postId,
        dataVersion: 1,
        jobId: 'cj_1',
        reservationId: null,
        scorer: { name: 'test', version: '1' },
        topics: [],
        messages: [],
        totalComments: 3,
        at,
      },
      metadata: { correlationId: 'req_1', causationId: null, teamId, occurredAt: at },
    };
    this.events.push(event);
    return event;
  }

  /** `POST /webhooks/{id}/ping` as recorded in the team's endpoints stream. */
  pinged(teamId: string, endpointId: string, at: string): RecordedEvent {
    const position = this.events.length;
    const event: RecordedEvent<'WebhookEndpointPinged', WebhookEndpointPinged['data']> = {
      id: `ev_${String(position).padStart(6, '0')}`,
      type: 'WebhookEndpointPinged',
      schemaVersion: 1,
      streamId: webhookEndpointsStream(teamId),
      revision: 1,
      position,
      data: { endpointId, teamId, pingId: `ping_${position}`, at },
      metadata: { correlationId: 'req_1', causationId: null, teamId, occurredAt: at },
    };
    this.events.push(event);
    return event;
  }

  async *readAll(afterPosition = -1, pageSize = 500): AsyncIterable<RecordedEvent[]> {
    const after = this.events.filter((e) => e.position > afterPosition);
    for (let i = 0; i < after.length; i += pageSize) yield after.slice(i, i + pageSize);
  }
}

/** Registers an endpoint through the decider, its URL checked as the API will check it. */
export async function registerEndpoint(
  endpoints: InMemoryWebhookEndpoints,
  policy: WebhookNetworkPolicy,
  endpoint: { teamId: string; endpointId: string; url: string; at: string; events?: WebhookEventType[] },
): Promise<string> {
  const secret = `whsec_${endpoint.endpointId}`;
  endpoints.execute(endpoint.teamId, {
    type: 'RegisterWebhookEndpoint',
    data: {
      endpointId: endpoint.endpointId,
      teamId: endpoint.teamId,
      urlCheck: await checkWebhookUrl(endpoint.url, policy),
      events: endpoint.events ?? ['post.updated'],
      secret,
      at: endpoint.at,
    },
  });
  return secret;
}
