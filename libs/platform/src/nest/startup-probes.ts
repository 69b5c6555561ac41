import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { HealthRegistry } from './health-registry';

/** Where the service will listen; the start-up probes hold the same address until it does. */
export interface ProbeAddress {
  port: number;
  host: string;
}

export interface StartupProbes {
  /** Frees the address for the app; resolves once the port is closed. */
  close(): Promise<void>;
}

const UP = { status: 'up' } as const;

function describe(reports: { name: string; detail?: string }[]): string {
  return reports.map((r) => (r.detail ? `${r.name} (${r.detail})` : r.name)).join('; ');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  response.end(JSON.stringify(body));
}

/**
 * `/healthz` and `/readyz` while the app initialises (read models catching up, stores connecting),
 * which can take minutes: routes cannot be added to Fastify once it listens, so a bare HTTP server
 * answers the probes on the service's address until the app takes it over. `/readyz` is 503 with
 * why (starting, and any component the registry reports failing, such as a projection that
 * throws); `/healthz` is 503 only when a component says it cannot recover. The bodies keep the
 * shape of HealthController's. `registry` is the app's, once Nest has created it.
 */
export function serveStartupProbes(
  registry: () => HealthRegistry | undefined,
  address: ProbeAddress,
): Promise<StartupProbes> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || (path !== '/healthz' && path !== '/readyz')) {
      send(response, 503, {
        error: { message: 'the service is starting; only /healthz and /readyz answer', code: 'starting' },
      });
      return;
    }
    if (path === '/healthz') {
      const dead = registry()?.notLive() ?? [];
      if (dead.length === 0) {
        send(response, 200, {
          status: 'ok',
          info: { process: UP, components: UP },
          error: {},
          details: { process: UP, components: UP },
        });
        return;
      }
      const components = { status: 'down', message: `cannot recover without a restart: ${describe(dead)}` };
      send(response, 503, {
        status: 'error',
        info: { process: UP },
        error: { components },
        details: { process: UP, components },
      });
      return;
    }
    const failing = registry()?.notReady() ?? [];
    const error: Record<string, { status: 'down'; message: string }> = {
      startup: { status: 'down', message: 'the service is starting (read models and connections)' },
    };
    if (failing.length > 0) error.components = { status: 'down', message: `not ready: ${describe(failing)}` };
    send(response, 503, { status: 'error', info: {}, error, details: error });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve({
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
