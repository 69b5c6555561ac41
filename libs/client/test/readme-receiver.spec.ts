import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import ts from 'typescript';
import * as client from '@analyst/client';

const README = join(__dirname, '../../../README.md');
const SECRET = 'whsec_readme_receiver_0123456789';

/** The README's receiver (the `ts` block of "Push instead of polling"), as it stands. */
function receiverSource(): string {
  const section = readFileSync(README, 'utf8').split('## Push instead of polling')[1] ?? '';
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no ts block under "Push instead of polling"');
  return block[1];
}

/**
 * Runs the receiver with its imports answered here: `@analyst/client` is this package, and
 * `node:http`'s server listens on a free port instead of 8080. Its `console.log` lines are kept.
 */
async function startReceiver(logged: string[]): Promise<{ url: string; server: http.Server }> {
  const { outputText } = ts.transpileModule(receiverSource(), {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  });
  let server: http.Server | undefined;
  const listening = new Promise<void>((resolve) => {
    const fakeHttp = {
      createServer: (handler: http.RequestListener) => {
        server = http.createServer(handler);
        const listen = server.listen.bind(server);
        Object.assign(server, { listen: () => listen(0, '127.0.0.1', () => resolve()) });
        return server;
      },
    };
    const modules: Record<string, unknown> = {
      'node:http': { default: fakeHttp, ...fakeHttp },
      '@analyst/client': client,
    };
    const requireShim = (name: string) => {
      if (!(name in modules)) throw new Error(`the README receiver imports ${name}`);
      return modules[name];
    };
    const exportsObject = {};
    const log = { log: (...args: unknown[]) => logged.push(args.join(' ')) };
    new Function('require', 'exports', 'module', 'process', 'console', outputText)(
      requireShim,
      exportsObject,
      { exports: exportsObject },
      { env: { WEBHOOK_SECRET: SECRET } },
      log,
    );
  });
  await listening;
  if (!server) throw new Error('the README receiver made no server');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const EVENT = {
  id: 'evt_readme1',
  type: 'analysis.ready',
  createdAt: '2026-03-10T12:00:00.000Z',
  teamId: 'tm_1',
  data: {
    object: 'analysis',
    id: 'an_1',
    status: 'ready',
    postCount: 1,
    totalComments: 10,
    matchedComments: 4,
    error: null,
    completedAt: '2026-03-10T12:00:00.000Z',
    path: '/analyses/an_1',
  },
};

async function deliver(
  url: string,
  body: string,
  signature?: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'analyst-signature': signature } : {}) },
    body,
  });
  return { status: response.status, text: await response.text() };
}

describe("the README's webhook receiver", () => {
  const logged: string[] = [];
  let receiver: { url: string; server: http.Server };
  beforeAll(async () => {
    receiver = await startReceiver(logged);
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  it('answers 204 to a delivery signed as the server signs it, and logs its type and path', async () => {
    const body = JSON.stringify(EVENT);
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
    await expect(deliver(receiver.url, body, `t=${t},v1=${v1}`)).resolves.toEqual({ status: 204, text: '' });
    expect(logged).toEqual(['analysis.ready /analyses/an_1']);
  });

  it('answers 400 with the reason to a forged, a stale and an unsigned delivery, and logs nothing', async () => {
    const body = JSON.stringify(EVENT);
    const t = Math.floor(Date.now() / 1000);
    const sign = (at: number, text: string) =>
      createHmac('sha256', SECRET).update(`${at}.${text}`).digest('hex');
    const forged = body.replace('an_1', 'an_2');
    await expect(deliver(receiver.url, forged, `t=${t},v1=${sign(t, body)}`)).resolves.toEqual({
      status: 400,
      text: 'mismatch',
    });
    await expect(deliver(receiver.url, body, `t=${t - 3600},v1=${sign(t - 3600, body)}`)).resolves.toEqual({
      status: 400,
      text: 'stale',
    });
    await expect(deliver(receiver.url, body)).resolves.toEqual({ status: 400, text: 'missing' });
    expect(logged).toEqual(['analysis.ready /analyses/an_1']);
  });
});
