import { createServer } from 'node:net';
import { HealthRegistry, serveStartupProbes } from '../src';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function get(port: number, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('start-up probes', () => {
  it('answer /readyz 503 with why and /healthz 200 while starting, then free the address', async () => {
    const registry = new HealthRegistry();
    let projection = { ready: false, detail: 'catching up at 12 of 40' };
    registry.register('projection:ingest', () => projection);
    const port = await freePort();
    const probes = await serveStartupProbes(() => registry, { port, host: '127.0.0.1' });

    const ready = await get(port, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: 'error',
      info: {},
      error: {
        startup: { status: 'down', message: 'the service is starting (read models and connections)' },
        components: { status: 'down', message: 'not ready: projection:ingest (catching up at 12 of 40)' },
      },
      details: {
        startup: { status: 'down', message: 'the service is starting (read models and connections)' },
        components: { status: 'down', message: 'not ready: projection:ingest (catching up at 12 of 40)' },
      },
    });
    const live = await get(port, '/healthz');
    expect(live.status).toBe(200);
    expect(live.body.status).toBe('ok');

    // Once the projection's failure is past recovering, liveness says so (the orchestrator restarts).
    projection = { ready: false, live: false, detail: 'failing for 300 s' } as typeof projection;
    const dead = await get(port, '/healthz');
    expect(dead.status).toBe(503);
    expect(dead.body.error).toEqual({
      components: {
        status: 'down',
        message: 'cannot recover without a restart: projection:ingest (failing for 300 s)',
      },
    });

    const route = await get(port, '/analyst/v1/me');
    expect(route.status).toBe(503);
    expect(route.body).toEqual({
      error: { message: 'the service is starting; only /healthz and /readyz answer', code: 'starting' },
    });

    await probes.close();
    // The app can take the address over.
    const app = createServer();
    await new Promise<void>((resolve, reject) => {
      app.once('error', reject);
      app.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => app.close(resolve));
  });

  it('fail to start on an address already taken, as the app would', async () => {
    const port = await freePort();
    const first = await serveStartupProbes(() => undefined, { port, host: '127.0.0.1' });
    await expect(serveStartupProbes(() => undefined, { port, host: '127.0.0.1' })).rejects.toThrow(
      /EADDRINUSE/,
    );
    await first.close();
  });
});
