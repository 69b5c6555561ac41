import { LedgerModule } from '@analyst/ledger';
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
    expect(response.body.data.credits).toEqual({ maps: expect.any(Number), adhoc: expect.any(Number), reserved: expect.any(Number) });
  });
});
