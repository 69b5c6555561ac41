import { GatewayModule } from '@analyst/gateway';
import { EVENT_STORE, FixedClock, type EventStore, type RecordedEvent } from '@analyst/platform';
import { createTestApp, type TestApp, type TestResponse } from '@analyst/testing';
import { ALLOWED_NETWORKS_VARIABLE, webhookEndpointsStream } from '@analyst/webhooks';
import { WebhookEndpointsModule } from '../src/endpoints/webhook-endpoints.module';

export const START = '2026-03-10T12:00:00.000Z';
export const WEBHOOK_SCOPES = ['webhooks:read', 'webhooks:write'];
const BIG = { perMinute: 100_000, perDay: 1_000_000 };

export interface EndpointsTest {
  t: TestApp;
  clock: FixedClock;
  events: EventStore;
  /** A team on `plan` (an Enterprise sub-team with `parentTeamId`), limits raised so tests never hit them. */
  team(plan?: string, parentTeamId?: string): Promise<string>;
  key(teamId: string, scopes?: string[]): Promise<string>;
  call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    key: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TestResponse>;
  /** The team's endpoints stream as the log holds it. */
  stream(teamId: string): Promise<RecordedEvent[]>;
  close(): Promise<void>;
}

let seq = 0;

/**
 * The gateway and the endpoint routes in one app, as the standalone app mounts them. With
 * `allowedNetworks`, ANALYST_WEBHOOK_ALLOWED_NETWORKS is set while the app starts (the service
 * reads it once then) and restored after.
 */
export async function endpointsTest(options: { allowedNetworks?: string } = {}): Promise<EndpointsTest> {
  const clock = new FixedClock(START);
  const before = process.env[ALLOWED_NETWORKS_VARIABLE];
  if (options.allowedNetworks === undefined) delete process.env[ALLOWED_NETWORKS_VARIABLE];
  else process.env[ALLOWED_NETWORKS_VARIABLE] = options.allowedNetworks;
  let t: TestApp;
  try {
    t = await createTestApp({ modules: [GatewayModule, WebhookEndpointsModule], clock });
  } finally {
    if (before === undefined) delete process.env[ALLOWED_NETWORKS_VARIABLE];
    else process.env[ALLOWED_NETWORKS_VARIABLE] = before;
  }
  const events = t.app.get<EventStore>(EVENT_STORE);
  return {
    t,
    clock,
    events,
    async team(plan = 'scale', parentTeamId) {
      const created = await t.admin('POST', '/admin/v1/teams', { name: `Team ${++seq}`, plan, parentTeamId });
      if (created.status !== 201) throw new Error(`team: ${created.status} ${created.raw}`);
      const teamId = created.body.data.id as string;
      const raised = await t.admin('PUT', `/admin/v1/teams/${teamId}/limits`, {
        limits: { global: BIG, webhooks_write: BIG },
      });
      if (raised.status !== 200) throw new Error(`limits: ${raised.status} ${raised.raw}`);
      return teamId;
    },
    async key(teamId, scopes = WEBHOOK_SCOPES) {
      const created = await t.admin('POST', `/admin/v1/teams/${teamId}/keys`, { name: `k${++seq}`, scopes });
      if (created.status !== 201) throw new Error(`key: ${created.status} ${created.raw}`);
      return created.body.data.key as string;
    },
    call: (method, path, key, body, headers = {}) =>
      t.request(method, `/analyst/v1${path}`, {
        headers: { authorization: `Bearer ${key}`, ...headers },
        body,
      }),
    stream: (teamId) => events.readStream(webhookEndpointsStream(teamId)),
    close: () => t.close(),
  };
}
