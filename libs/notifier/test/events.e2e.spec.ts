import { GatewayModule } from '@analyst/gateway';
import { EventStreamModule, EventStreams } from '@analyst/notifier';
import { EVENT_STORE, FixedClock, type EventStore, type NewEvent } from '@analyst/platform';
import { createTestApp, type TestApp } from '@analyst/testing';
import { openSse, type SseConnection } from './events-sse-client';

const NOW = '2026-03-10T12:00:00.000Z';
const HOUR = 3_600_000;

/**
 * GET /events in one process (the standalone shape): the gateway admits the key and caps its open
 * streams, the event stream module follows the log. A real listening server: each frame is read
 * as it arrives.
 */
describe('GET /events (server-sent events)', () => {
  let t: TestApp;
  let base: string;
  let log: EventStore;
  let teamB: string;
  let parent: string;
  let sub: string;
  let seq = 0;
  const open: SseConnection[] = [];

  const previousHeartbeat = process.env.ANALYST_EVENTS_HEARTBEAT_MS;

  async function team(plan: string, parentTeamId?: string): Promise<string> {
    const created = await t.admin('POST', '/admin/v1/teams', { name: `Team ${++seq}`, plan, parentTeamId });
    if (created.status !== 201) throw new Error(`team: ${created.status} ${created.raw}`);
    return created.body.data.id as string;
  }

  /**
   * A key of the team. Tests take a fresh team (3 keys at most) and key each: the test clock never
   * moves, so a key's minute window of the events_stream class never rolls over.
   */
  async function key(teamId: string, scopes = ['webhooks:read']): Promise<string> {
    const res = await t.admin('POST', `/admin/v1/teams/${teamId}/keys`, { name: `k${++seq}`, scopes });
    if (res.status !== 201) throw new Error(`key: ${res.status} ${res.raw}`);
    return res.body.data.key as string;
  }

  async function stream(
    apiKey: string,
    query = '',
    headers: Record<string, string> = {},
  ): Promise<SseConnection> {
    const connection = await openSse(`${base}/analyst/v1/events${query}`, {
      authorization: `Bearer ${apiKey}`,
      ...headers,
    });
    open.push(connection);
    return connection;
  }

  /** Appends an analysis.failed fact of the team; answers its log position and the webhook event it maps to. */
  async function analysisFailed(teamId: string, occurredAt = NOW) {
    const n = ++seq;
    const event: NewEvent = {
      id: `ev_stream_${n}`,
      type: 'AnalysisFailed',
      schemaVersion: 1,
      data: { analysisId: `an_${n}`, message: `failed ${n}`, at: occurredAt },
      metadata: { correlationId: `c${n}`, causationId: null, teamId, occurredAt },
    };
    const { position } = await log.append(`analysis-an_${n}`, [event], 'any');
    return {
      position,
      webhookEvent: {
        id: `evt_stream_${n}`,
        type: 'analysis.failed',
        createdAt: occurredAt,
        teamId,
        data: {
          object: 'analysis',
          id: `an_${n}`,
          status: 'failed',
          postCount: null,
          totalComments: null,
          matchedComments: null,
          error: { message: `failed ${n}` },
          completedAt: occurredAt,
          path: `/analyses/an_${n}`,
        },
      },
    };
  }

  /** Appends a content_job.completed fact of the team. */
  async function jobCompleted(teamId: string) {
    const n = ++seq;
    const { position } = await log.append(
      `contentjob-cj_${n}`,
      [
        {
          id: `ev_stream_${n}`,
          type: 'JobSettled',
          schemaVersion: 1,
          data: { status: 'completed', error: null, at: NOW },
          metadata: { correlationId: `c${n}`, causationId: null, teamId, occurredAt: NOW },
        },
      ],
      'any',
    );
    return { position, id: `evt_stream_${n}`, jobId: `cj_${n}` };
  }

  beforeAll(async () => {
    process.env.ANALYST_EVENTS_HEARTBEAT_MS = '150';
    t = await createTestApp({ modules: [GatewayModule, EventStreamModule], clock: new FixedClock(NOW) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    log = t.app.get<EventStore>(EVENT_STORE);
    teamB = await team('scale');
    parent = await team('enterprise');
    sub = await team('scale', parent);
  });

  afterEach(() => {
    for (const connection of open.splice(0)) connection.close();
  });

  afterAll(async () => {
    await t.close();
    if (previousHeartbeat === undefined) delete process.env.ANALYST_EVENTS_HEARTBEAT_MS;
    else process.env.ANALYST_EVENTS_HEARTBEAT_MS = previousHeartbeat;
  });

  it('answers an event stream and sends an event appended after it opened: id, type, the webhook event as data', async () => {
    const teamA = await team('scale');
    const connection = await stream(await key(teamA));
    expect(connection.status).toBe(200);
    expect(connection.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(connection.headers['cache-control']).toBe('no-cache');
    expect(connection.headers['x-accel-buffering']).toBe('no');
    expect(await connection.next()).toEqual({ retry: '3000' });

    const appended = await analysisFailed(teamA);
    const frame = await connection.nextEvent();
    expect([frame.id, frame.event]).toEqual([String(appended.position), 'analysis.failed']);
    expect(JSON.parse(frame.data!)).toEqual(appended.webhookEvent);
  });

  it('sends only the types asked for', async () => {
    const teamA = await team('scale');
    const connection = await stream(await key(teamA), '?types=content_job.completed,content_job.failed');
    expect(connection.status).toBe(200);
    await analysisFailed(teamA);
    const job = await jobCompleted(teamA);
    const frame = await connection.nextEvent();
    expect([frame.id, frame.event, JSON.parse(frame.data!).data.id]).toEqual([
      String(job.position),
      'content_job.completed',
      job.jobId,
    ]);
  });

  it("never sends another team's events", async () => {
    const teamA = await team('scale');
    const connection = await stream(await key(teamA));
    await analysisFailed(teamB);
    await jobCompleted(teamB);
    const own = await analysisFailed(teamA);
    const frame = await connection.nextEvent();
    // B's facts come first in the log: had they been sent, they would be this frame.
    expect(frame.id).toBe(String(own.position));
    expect(JSON.parse(frame.data!).teamId).toBe(teamA);
    expect(connection.pending().filter((f) => f.event !== undefined)).toEqual([]);
  });

  it("an Enterprise key streams a sub-team's events with teamId, and only that team's", async () => {
    const teamA = await team('scale');
    const connection = await stream(await key(parent), `?teamId=${sub}`);
    expect(connection.status).toBe(200);
    await analysisFailed(parent);
    const subs = await analysisFailed(sub);
    const frame = await connection.nextEvent();
    expect([frame.id, JSON.parse(frame.data!).teamId]).toEqual([String(subs.position), sub]);

    const notSub = await stream(await key(teamA), `?teamId=${sub}`);
    expect(notSub.status).toBe(404);
    expect((await notSub.errorBody()).error.code).toBe('team_not_found');
  });

  it('resumes right after Last-Event-ID: no duplicate, no gap, what was appended while away included', async () => {
    const teamA = await team('scale');
    const apiKey = await key(teamA);
    const first = await stream(apiKey);
    const sent = [await analysisFailed(teamA), await analysisFailed(teamA), await analysisFailed(teamA)];
    const received = [await first.nextEvent(), await first.nextEvent(), await first.nextEvent()];
    expect(received.map((f) => f.id)).toEqual(sent.map((e) => String(e.position)));
    first.close();
    const whileAway = [await analysisFailed(teamA), await analysisFailed(teamA)];

    const resumed = await stream(apiKey, '', { 'last-event-id': received[0].id! });
    expect(resumed.status).toBe(200);
    const expected = [sent[1], sent[2], ...whileAway];
    const again: unknown[] = [];
    for (let i = 0; i < expected.length; i += 1) again.push(JSON.parse((await resumed.nextEvent()).data!));
    expect(again).toEqual(expected.map((e) => e.webhookEvent));
    // Nothing more: a live event comes next, not a repeat.
    const live = await analysisFailed(teamA);
    expect((await resumed.nextEvent()).id).toBe(String(live.position));
  });

  it('refuses a Last-Event-ID older than the retention window with 410, and resumes one just inside it', async () => {
    const teamA = await team('scale');
    const old = await analysisFailed(teamA, new Date(Date.parse(NOW) - 25 * HOUR).toISOString());
    const recent = await analysisFailed(teamA, new Date(Date.parse(NOW) - 23 * HOUR).toISOString());
    const newer = await analysisFailed(teamA);
    const apiKey = await key(teamA);

    // Resuming before `old` would send an event recorded 25 h ago again.
    const expired = await stream(apiKey, '', { 'last-event-id': String(old.position - 1) });
    expect(expired.status).toBe(410);
    const body = await expired.errorBody();
    expect(body.error.code).toBe('last_event_id_expired');
    expect(body.error.message).toContain('older than the 24 h');

    // After `old`, the oldest event sent again was recorded 23 h ago: within the window.
    const resumed = await stream(apiKey, '', { 'last-event-id': String(old.position) });
    expect(resumed.status).toBe(200);
    expect(JSON.parse((await resumed.nextEvent()).data!)).toEqual(recent.webhookEvent);
    expect(JSON.parse((await resumed.nextEvent()).data!)).toEqual(newer.webhookEvent);
  });

  it('answers 400 invalid_parameter for a malformed Last-Event-ID, one past the log, and an unknown type', async () => {
    const teamA = await team('scale');
    const apiKey = await key(teamA);
    for (const [query, headers, says] of [
      ['', { 'last-event-id': 'evt_abc' }, 'Last-Event-ID must be the decimal id'],
      ['', { 'last-event-id': '-3' }, 'Last-Event-ID must be the decimal id'],
      ['', { 'last-event-id': String((await log.headPosition()) + 1000) }, 'past the end of the event log'],
      ['?types=analysis.ready,post.deleted', {}, 'unknown event type "post.deleted"'],
      ['?types=analysis.ready,', {}, 'an empty entry'],
      ['?types=webhook.ping', {}, 'unknown event type "webhook.ping"'],
    ] as const) {
      const refused = await stream(apiKey, query, headers);
      const body = await refused.errorBody();
      expect([query, refused.status, body.error.code]).toEqual([query, 400, 'invalid_parameter']);
      expect(body.error.message).toContain(says);
    }
  });

  it('sends a heartbeat comment while nothing happens', async () => {
    const teamA = await team('scale');
    const connection = await stream(await key(teamA));
    await connection.next(); // retry
    expect(await connection.next(3000)).toEqual({ comment: 'heartbeat' });
    expect(await connection.next(3000)).toEqual({ comment: 'heartbeat' });
  });

  it('needs the webhooks:read scope', async () => {
    const teamA = await team('scale');
    const refused = await stream(await key(teamA, ['analyses:read']));
    expect(refused.status).toBe(403);
    expect((await refused.errorBody()).error.message).toContain('webhooks:read');
  });

  it('caps a key at 5 open streams: the sixth is 429 too_many_streams with Retry-After, a closed one frees its place', async () => {
    const teamA = await team('scale');
    const apiKey = await key(teamA);
    const five = [];
    for (let i = 0; i < 5; i += 1) five.push(await stream(apiKey));
    expect(five.map((c) => c.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await stream(apiKey);
    expect([sixth.status, sixth.headers['retry-after']]).toEqual([429, '30']);
    const body = await sixth.errorBody();
    expect(body.error.code).toBe('too_many_streams');
    expect(body.error.message).toContain('already holds 5 open event streams');
    // Another key of the same team has its own places.
    expect((await stream(await key(teamA))).status).toBe(200);

    five[0].close();
    // The place comes back once the server sees the connection close.
    let reopened: SseConnection | null = null;
    for (let attempt = 0; attempt < 40 && reopened?.status !== 200; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50));
      reopened = await stream(apiKey);
    }
    expect(reopened?.status).toBe(200);
    expect((await stream(apiKey)).status).toBe(429);
  });

  it('ends open streams when the app shuts down (SIGTERM does not wait on them)', async () => {
    const other = await createTestApp({
      modules: [GatewayModule, EventStreamModule],
      clock: new FixedClock(NOW),
    });
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const url = (await other.app.getUrl()).replace('[::1]', '127.0.0.1');
    const created = await other.admin('POST', '/admin/v1/teams', { name: 'Closing', plan: 'scale' });
    const made = await other.admin('POST', `/admin/v1/teams/${created.body.data.id}/keys`, {
      name: 'k',
      scopes: ['webhooks:read'],
    });
    const connections = [
      await openSse(`${url}/analyst/v1/events`, { authorization: `Bearer ${made.body.data.key}` }),
      await openSse(`${url}/analyst/v1/events`, { authorization: `Bearer ${made.body.data.key}` }),
    ];
    const head = await other.app.get<EventStore>(EVENT_STORE).headPosition();
    connections.push(
      await openSse(`${url}/analyst/v1/events`, {
        authorization: `Bearer ${made.body.data.key}`,
        'last-event-id': String(head),
      }),
    );
    expect(connections.map((c) => c.status)).toEqual([200, 200, 200]);
    expect(other.app.get(EventStreams).count).toBe(3);
    const metrics = (await other.request('GET', '/metrics')).raw;
    const value = (series: string) =>
      Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(metrics)?.[1]);
    expect([
      value('analyst_gateway_event_streams_open{service="test"}'),
      value('analyst_notifier_event_streams_open{subscription="shared",service="test"}'),
      value('analyst_notifier_event_streams_open{subscription="own",service="test"}'),
    ]).toEqual([3, 2, 1]);
    await other.close();
    await Promise.all(connections.map((c) => c.ended));
    expect(other.app.get(EventStreams).count).toBe(0);
  });
});
