import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkWebhookUrl,
  sendWebhookAttempt,
  webhookNetworkPolicy,
  webhookNetworkPolicyFromEnv,
  type ResolveAll,
} from '../src';
import { verifyWebhookSignature } from '@analyst/client';

/** The tests' receiver listens on loopback, which only the operator's setting opens. */
const LOOPBACK_OPEN = webhookNetworkPolicyFromEnv({ ANALYST_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
const DEFAULT = webhookNetworkPolicy(undefined);
const SECRET = 'whsec_test_secret';
const BODY = JSON.stringify({ id: 'evt_1', type: 'post.updated', data: { id: 'po_1' } });

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1 that records what it got and answers with the test's handler. */
class Receiver {
  readonly received: Received[] = [];
  private server!: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  constructor(private readonly answer: (res: http.ServerResponse, req: Received) => void) {}

  async start(): Promise<number> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const got = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
        got.body = Buffer.concat(chunks).toString('utf8');
        this.received.push(got);
        this.answer(res, got);
      });
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const receivers: Receiver[] = [];
async function receiver(answer: (res: http.ServerResponse, req: Received) => void) {
  const r = new Receiver(answer);
  receivers.push(r);
  return { r, port: await r.start() };
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

const send = (url: string, options: Partial<Parameters<typeof sendWebhookAttempt>[1]> = {}) =>
  sendWebhookAttempt(
    { url, body: BODY, secrets: [SECRET], headers: { 'analyst-event-id': 'evt_1' } },
    { policy: LOOPBACK_OPEN, ...options },
  );

describe('sendWebhookAttempt against a receiver on 127.0.0.1', () => {
  it('a 2xx is delivered: one signed JSON POST the receiver can verify, its answer kept', async () => {
    const { r, port } = await receiver((res) => res.writeHead(202).end('{"ok":true}'));
    const result = await send(`http://127.0.0.1:${port}/hooks/analyst`, { now: () => 1_700_000_000_000 });
    expect(result).toEqual({
      outcome: 'delivered',
      status: 202,
      body: '{"ok":true}',
      latencyMs: expect.any(Number),
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(r.received).toHaveLength(1);
    const [got] = r.received;
    expect(got).toMatchObject({ method: 'POST', url: '/hooks/analyst', body: BODY });
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'analyst-event-id': 'evt_1',
      'analyst-signature': expect.stringMatching(/^t=1700000000,v1=[0-9a-f]{64}$/),
    });
    await expect(
      verifyWebhookSignature(got.body, got.headers['analyst-signature'], SECRET, {
        nowSeconds: 1_700_000_010,
      }),
    ).resolves.toEqual({ ok: true, timestamp: 1_700_000_000 });
  });

  it('a 500 is a failed attempt with its status and the answer kept', async () => {
    const { port } = await receiver((res) => res.writeHead(500).end('database down'));
    await expect(send(`http://127.0.0.1:${port}/`)).resolves.toEqual({
      outcome: 'failed',
      status: 500,
      error: { code: 'http_status', message: 'the receiver answered 500' },
      body: 'database down',
      latencyMs: expect.any(Number),
    });
  });

  it('a redirect is a failure and is not followed', async () => {
    const { r, port } = await receiver((res, req) =>
      req.url === '/old' ? res.writeHead(302, { location: '/new' }).end() : res.writeHead(200).end(),
    );
    const result = await send(`http://127.0.0.1:${port}/old`);
    expect(result).toMatchObject({
      outcome: 'failed',
      status: 302,
      error: { code: 'redirect', message: 'redirect to /new not followed' },
    });
    expect(r.received.map((g) => g.url)).toEqual(['/old']);
  });

  it('only the first 1 KB of an answer is kept', async () => {
    const { port } = await receiver((res) => res.writeHead(200).end('x'.repeat(5000)));
    const result = await send(`http://127.0.0.1:${port}/`);
    expect(result.outcome).toBe('delivered');
    expect(result.body).toBe('x'.repeat(1024));
  });

  it('a receiver slower than the timeout is a failed attempt without a status', async () => {
    const { r, port } = await receiver((res) => setTimeout(() => res.writeHead(200).end(), 3000).unref());
    const result = await send(`http://127.0.0.1:${port}/`, { timeoutMs: 150 });
    expect(result).toEqual({
      outcome: 'failed',
      error: { code: 'timeout', message: 'no answer within 150 ms' },
      body: '',
      latencyMs: expect.any(Number),
    });
    expect(r.received).toHaveLength(1);
  });

  it('a 2xx whose status came in time is delivered even when its body outlasts the timeout', async () => {
    const { port } = await receiver((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('accepted, still writing');
    });
    await expect(send(`http://127.0.0.1:${port}/`, { timeoutMs: 300 })).resolves.toEqual({
      outcome: 'delivered',
      status: 200,
      body: 'accepted, still writing',
      latencyMs: expect.any(Number),
    });
  });

  it('a closed port is a refused connection', async () => {
    const { r, port } = await receiver((res) => res.end());
    await r.stop();
    receivers.splice(receivers.indexOf(r), 1);
    await expect(send(`http://127.0.0.1:${port}/`)).resolves.toMatchObject({
      outcome: 'failed',
      error: { code: 'connection_refused' },
    });
  });

  it('reaches a name through the guarded lookup when its address is allowed', async () => {
    const { r, port } = await receiver((res) => res.writeHead(204).end());
    const resolveAll: ResolveAll = async () => [{ address: '127.0.0.1', family: 4 }];
    await expect(send(`http://receiver.test:${port}/`, { resolveAll })).resolves.toMatchObject({
      outcome: 'delivered',
      status: 204,
    });
    expect(r.received[0].headers.host).toBe(`receiver.test:${port}`);
  });
});

describe('sendWebhookAttempt refused by the guard (default policy)', () => {
  it('refuses loopback, as a literal or as a name resolving to it, before the receiver sees anything', async () => {
    const { r, port } = await receiver((res) => res.writeHead(200).end());
    const resolveAll: ResolveAll = async () => [{ address: '127.0.0.1', family: 4 }];
    const results = await Promise.all([
      send(`http://127.0.0.1:${port}/`, { policy: DEFAULT }),
      send(`https://127.0.0.1:${port}/`, { policy: DEFAULT }),
      send(`https://[::ffff:127.0.0.1]:${port}/`, { policy: DEFAULT }),
      send(`https://receiver.test:${port}/`, { policy: DEFAULT, resolveAll }),
    ]);
    expect(results.map((x) => [x.outcome, x.error])).toEqual([
      ['failed', { code: 'url_refused', message: 'the url must use https, not http' }],
      ['failed', { code: 'address_refused', message: '127.0.0.1 is a loopback address' }],
      ['failed', { code: 'address_refused', message: '::ffff:7f00:1 is a loopback address' }],
      ['failed', { code: 'address_refused', message: 'receiver.test: 127.0.0.1 is a loopback address' }],
    ]);
    expect(r.received).toEqual([]);
  });

  it('refuses at connect time a name that rebinds after it passed registration', async () => {
    const { r, port } = await receiver((res) => res.writeHead(200).end());
    // The operator opened 127.0.0.2 only; the name resolves there at registration, then to 127.0.0.1.
    const policy = webhookNetworkPolicy('127.0.0.2/32');
    const answers = ['127.0.0.2', '127.0.0.1'];
    const resolveAll: ResolveAll = async () => [{ address: answers.shift() ?? '127.0.0.1', family: 4 }];
    const url = `http://rebind.test:${port}/`;
    await expect(checkWebhookUrl(url, policy, resolveAll)).resolves.toMatchObject({
      ok: true,
      addresses: ['127.0.0.2'],
    });
    await expect(send(url, { policy, resolveAll })).resolves.toMatchObject({
      outcome: 'failed',
      error: { code: 'address_refused', message: 'rebind.test: 127.0.0.1 is a loopback address' },
    });
    expect(r.received).toEqual([]);
  });
});
