import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnalystApiError, createAnalystClient, type StreamedEvent, type WebhookEvent } from '@analyst/client';

const KEY = 'ak_stream01.secret';

const event = (n: number, type: WebhookEvent['type'] = 'analysis.ready'): WebhookEvent =>
  ({
    id: `evt_${n}`,
    type,
    createdAt: '2026-03-10T12:00:00.000Z',
    teamId: 'tm_1',
    data: {
      object: 'analysis',
      id: `an_${n}`,
      status: 'ready',
      postCount: 1,
      totalComments: 10,
      matchedComments: 4,
      error: null,
      completedAt: '2026-03-10T12:00:00.000Z',
      path: `/analyses/an_${n}`,
    },
  }) as WebhookEvent;

const frame = (position: number, e: WebhookEvent) =>
  `id: ${position}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

interface SeenRequest {
  url: string;
  authorization?: string;
  accept?: string;
  lastEventId?: string;
}

/** A server whose every request is answered by the next handler in `script` (the last one repeats). */
class ScriptedServer {
  readonly requests: SeenRequest[] = [];
  closedByClient = 0;
  private readonly server: http.Server;
  constructor(private readonly script: ((res: http.ServerResponse) => void)[]) {
    this.server = http.createServer((req, res) => {
      this.requests.push({
        url: req.url ?? '',
        authorization: req.headers.authorization,
        accept: req.headers.accept,
        lastEventId: req.headers['last-event-id'] as string | undefined,
      });
      res.on('close', () => {
        if (!res.writableEnded) this.closedByClient += 1;
      });
      const handler = this.script[Math.min(this.requests.length - 1, this.script.length - 1)];
      handler(res);
    });
  }
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const streamHead = (res: http.ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });

/** Writes each piece as its own chunk, flushed apart, so frames arrive cut anywhere. */
async function writeApart(res: http.ServerResponse, pieces: string[]): Promise<void> {
  for (const piece of pieces) {
    res.write(piece);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const errorAnswer =
  (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  (res: http.ServerResponse) =>
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify({ error: { code, message } }));

async function take(iterator: AsyncGenerator<StreamedEvent>, n: number): Promise<StreamedEvent[]> {
  const got: StreamedEvent[] = [];
  for await (const item of iterator) {
    got.push(item);
    if (got.length === n) break;
  }
  return got;
}

describe('client.events() over GET /events (a local SSE server)', () => {
  let server: ScriptedServer;
  afterEach(async () => server?.stop());

  it('yields the typed events with their ids from frames cut across chunks, skipping heartbeats, with the key and the types filter', async () => {
    const body =
      'retry: 3000\n\n' + frame(11, event(1)) + ': heartbeat\n\n' + frame(12, event(2, 'analysis.failed'));
    server = new ScriptedServer([
      (res) => {
        streamHead(res);
        // Cut inside the id line, inside the JSON, between the data line and its blank line.
        void writeApart(res, [body.slice(0, 17), body.slice(17, 60), body.slice(60, 141), body.slice(141)]);
      },
    ]);
    const client = createAnalystClient({ baseUrl: await server.start(), apiKey: KEY });
    const got = await take(client.events({ types: ['analysis.ready', 'analysis.failed'] }), 2);
    expect(got).toEqual([
      { id: '11', event: event(1) },
      { id: '12', event: event(2, 'analysis.failed') },
    ]);
    expect(server.requests).toEqual([
      {
        url: '/analyst/v1/events?types=analysis.ready%2Canalysis.failed',
        authorization: `Bearer ${KEY}`,
        accept: 'text/event-stream',
        lastEventId: undefined,
      },
    ]);
  });

  it('after a dropped connection waits the server retry and resumes with Last-Event-ID: no event missed or repeated', async () => {
    const waits: number[] = [];
    server = new ScriptedServer([
      (res) => {
        streamHead(res);
        res.end('retry: 1500\n\n' + frame(21, event(1)) + frame(22, event(2))); // then the connection drops
      },
      (res) => {
        res.socket?.destroy(); // a network error on the first reconnection
      },
      (res) => {
        streamHead(res);
        res.write(frame(23, event(3)) + frame(24, event(4)));
      },
    ]);
    const client = createAnalystClient({
      baseUrl: await server.start(),
      apiKey: KEY,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const got = await take(client.events({ lastEventId: '20', teamId: 'tm_sub' }), 4);
    expect(got.map((g) => [g.id, g.event.id])).toEqual([
      ['21', 'evt_1'],
      ['22', 'evt_2'],
      ['23', 'evt_3'],
      ['24', 'evt_4'],
    ]);
    expect(server.requests.map((r) => [r.url, r.lastEventId])).toEqual([
      ['/analyst/v1/events?teamId=tm_sub', '20'],
      ['/analyst/v1/events?teamId=tm_sub', '22'],
      ['/analyst/v1/events?teamId=tm_sub', '22'],
    ]);
    expect(waits).toEqual([1500, 1500]);
  });

  it('surfaces 410 last_event_id_expired and 429 too_many_streams (with its Retry-After) as AnalystApiError, without retrying', async () => {
    server = new ScriptedServer([
      errorAnswer(410, 'last_event_id_expired', 'Last-Event-ID 5 is older than the 24 h retention window'),
      errorAnswer(429, 'too_many_streams', 'This key has 5 open streams', { 'retry-after': '7' }),
    ]);
    const client = createAnalystClient({ baseUrl: await server.start(), apiKey: KEY });
    const expired = await take(client.events({ lastEventId: '5' }), 1).catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(AnalystApiError);
    expect(expired).toMatchObject({
      status: 410,
      code: 'last_event_id_expired',
      message: 'Last-Event-ID 5 is older than the 24 h retention window',
    });
    const tooMany = await take(client.events(), 1).catch((e: unknown) => e);
    expect(tooMany).toMatchObject({ status: 429, code: 'too_many_streams', retryAfterMs: 7000 });
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 503 and gives up with connection_lost after maxReconnects in a row', async () => {
    const waits: number[] = [];
    server = new ScriptedServer([errorAnswer(503, 'unavailable', 'notifier starting')]);
    const client = createAnalystClient({
      baseUrl: await server.start(),
      apiKey: KEY,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const error = await take(client.events({ maxReconnects: 2 }), 1).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'connection_lost' });
    expect(server.requests).toHaveLength(3);
    expect(waits).toEqual([3000, 3000]);
  });

  it('stops quietly on abort and closes the connection on break', async () => {
    server = new ScriptedServer([
      (res) => {
        streamHead(res);
        res.write(frame(31, event(1)));
        // then nothing more: the stream stays open
      },
    ]);
    const client = createAnalystClient({ baseUrl: await server.start(), apiKey: KEY });
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const item of client.events({ signal: controller.signal })) {
      seen.push(item.id);
      controller.abort();
    }
    expect(seen).toEqual(['31']);
    expect(await take(client.events(), 1)).toEqual([{ id: '31', event: event(1) }]);
    for (let i = 0; i < 100 && server.closedByClient < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(server.closedByClient).toBe(2);
  });

  it('an abort during the wait before a reconnection ends the iteration at once', async () => {
    server = new ScriptedServer([
      (res) => {
        streamHead(res);
        res.end(frame(41, event(1))); // the stream ends: the client waits to reconnect
      },
    ]);
    const controller = new AbortController();
    const client = createAnalystClient({
      baseUrl: await server.start(),
      apiKey: KEY,
      sleep: () => new Promise(() => undefined), // a wait that never ends by itself
    });
    const seen: string[] = [];
    for await (const item of client.events({ signal: controller.signal })) {
      seen.push(item.id);
      setTimeout(() => controller.abort(), 50);
    }
    expect(seen).toEqual(['41']);
    expect(server.requests).toHaveLength(1);
  });
});
