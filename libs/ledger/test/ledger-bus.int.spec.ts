import { ledgerKit, type LedgerKit } from './ledger-test-kit';

/**
 * The ledger's bus boundary on the standalone platform: requests as another service sends them on
 * `commandTopic('ledger')`, each answered with its result's values or the rule it broke; a
 * malformed message is answered, never written.
 */
describe('Ledger bus requests: given a message on the command topic, expect its reply', () => {
  let k: LedgerKit;
  beforeAll(async () => {
    k = await ledgerKit();
    await k.createTeam('team_a', 'growth', 4);
  });
  afterAll(async () => k.close());

  it('answers each request type with its result', async () => {
    expect(
      await k.request('GrantCredits', {
        teamId: 'team_a',
        commandId: 'g1',
        pool: 'adhoc',
        amount: 6,
        reason: 'bought',
      }),
    ).toEqual({ pool: 'adhoc', amount: 6 });
    expect(
      await k.request('ReserveCredits', {
        teamId: 'team_a',
        commandId: 'r1',
        reservationId: 'res1',
        units: 3,
        unitCost: 2,
        source: 'auto',
      }),
    ).toEqual({ reservationId: 'res1', fundedUnits: 3, amount: 6, fromMaps: 4, fromAdhoc: 2 });
    expect(
      await k.request('SettleCredits', {
        teamId: 'team_a',
        commandId: 's1',
        reservationId: 'res1',
        consumed: 2,
      }),
    ).toEqual({
      reservationId: 'res1',
      consumedUnits: 2,
      charged: { maps: 4, adhoc: 0 },
      returned: { maps: 0, adhoc: 2 },
      expiredOnReturn: 0,
    });
    await k.request('ReserveCredits', {
      teamId: 'team_a',
      commandId: 'r2',
      reservationId: 'res2',
      units: 1,
      unitCost: 5,
      source: 'adhoc',
    });
    expect(
      await k.request('RefundCredits', {
        teamId: 'team_a',
        commandId: 'f1',
        reservationId: 'res2',
        reason: 'create_failed',
      }),
    ).toEqual({ reservationId: 'res2', returned: { maps: 0, adhoc: 5 }, expiredOnReturn: 0 });
    expect(await k.ledger.balances('team_a')).toEqual({ maps: 0, adhoc: 6, reserved: 0 });
  });

  it.each([
    ['MintCredits', { teamId: 'team_a', commandId: 'm1' }, 'unknown ledger command type MintCredits'],
    [
      'GrantCredits',
      { commandId: 'm2', pool: 'adhoc', amount: 1, reason: 'x' },
      'teamId must be a non-empty string',
    ],
    [
      'GrantCredits',
      { teamId: 'team_a', commandId: 'm3', pool: 'adhoc', amount: '1', reason: 'x' },
      'amount must be an integer of at least 1',
    ],
    [
      'ReserveCredits',
      { teamId: 'team_a', commandId: 'm4', reservationId: 'res9', units: 1, unitCost: 1, source: 'maps' },
      'source must be auto or adhoc',
    ],
  ])('a malformed %s is answered invalid_command and writes nothing', async (type, payload, message) => {
    const before = (await k.ledgerEvents('team_a')).length;
    expect(await k.request(type, payload)).toEqual({ error: { code: 'invalid_command', message } });
    expect(await k.ledgerEvents('team_a')).toHaveLength(before);
  });
});
