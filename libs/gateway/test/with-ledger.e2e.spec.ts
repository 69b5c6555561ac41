import { LedgerModule } from '@analyst/ledger';
import { TEST_ADMIN_TOKEN } from '@analyst/testing';
import { gatewayTest, type GatewayTest } from './gateway-fixture';

describe('GatewayModule next to LedgerModule', () => {
  let g: GatewayTest;
  beforeAll(async () => (g = await gatewayTest([LedgerModule])));
  afterAll(() => g.t.close());

  it('boots, and GET /team reports the credit balances', async () => {
    const team = await g.team('growth');
    const key = await g.key(team);
    const response = await g.get('/analyst/v1/team', key);
    expect(response.status).toBe(200);
    expect(response.body.data.credits).toEqual({
      maps: expect.any(Number),
      adhoc: expect.any(Number),
      reserved: expect.any(Number),
    });
  });

  it('GET /team shows a credit grant in the very next request, to the credit', async () => {
    const team = await g.team('growth');
    const key = await g.key(team);
    const before = (await g.get('/analyst/v1/team', key)).body.data.credits;
    const granted = await g.t.request('POST', `/admin/v1/teams/${team}/credits`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      body: { pool: 'adhoc', amount: 37, reason: 'test' },
    });
    expect(granted.status).toBeLessThan(300);
    const after = (await g.get('/analyst/v1/team', key)).body.data.credits;
    expect(after).toEqual({ ...before, adhoc: before.adhoc + 37 });
  });

  it('counts wrong admin tokens once per address across the admin routes of every module', async () => {
    const team = await g.team('growth');
    const from = (url: string, token: string) =>
      g.t.request('GET', url, { headers: { authorization: `Bearer ${token}` }, ip: '10.7.7.7' });
    // 20 wrong on the gateway's admin routes and 10 on the ledger's: 30 from one address.
    for (let i = 0; i < 20; i++)
      expect((await from(`/admin/v1/teams/${team}`, `wrong-token-${i}-0123456789`)).status).toBe(401);
    for (let i = 0; i < 10; i++)
      expect((await from(`/admin/v1/teams/${team}/ledger`, `wrong-token-${i}-0123456789`)).status).toBe(401);
    expect((await from(`/admin/v1/teams/${team}/ledger`, TEST_ADMIN_TOKEN)).status).toBe(429);
    expect((await from(`/admin/v1/teams/${team}`, TEST_ADMIN_TOKEN)).status).toBe(429);
  });
});
