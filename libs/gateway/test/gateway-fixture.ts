import { FixedClock } from '@analyst/platform';
import { createTestApp, type TestApp, type TestResponse } from '@analyst/testing';
import { IdentityService, GatewayModule } from '@analyst/gateway';
import type { Scope } from '@analyst/contracts';

export const START = '2026-03-10T12:00:00.000Z';

export interface GatewayTest {
  t: TestApp;
  clock: FixedClock;
  identity: IdentityService;
  team(plan?: string, parentTeamId?: string): Promise<string>;
  key(teamId: string, scopes?: Scope[]): Promise<string>;
  get(url: string, key: string, ip?: string): Promise<TestResponse>;
}

export async function gatewayTest(
  modules: unknown[] = [],
  clock = new FixedClock(START),
  env: Record<string, string> = {},
): Promise<GatewayTest> {
  const t = await createTestApp({ modules: [GatewayModule, ...modules], clock, env });
  const identity = t.app.get(IdentityService);
  const ctx = { correlationId: 'test', teamId: null };
  return {
    t,
    clock,
    identity,
    team: async (plan = 'growth', parentTeamId?: string) =>
      (await identity.createTeam({ name: `Team ${plan}`, plan, parentTeamId }, ctx)).teamId,
    key: async (teamId, scopes) => (await identity.createKey(teamId, { name: 'test key', scopes }, ctx)).key,
    get: (url, key, ip) => t.request('GET', url, { headers: { authorization: `Bearer ${key}` }, ip }),
  };
}
