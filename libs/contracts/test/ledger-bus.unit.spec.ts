import { isLedgerErrorReply, ledgerBusMessage } from '../src/ledger';

describe('ledgerBusMessage: given a ledger bus request, expect the message every requester sends', () => {
  it('the command id is the message id and the team id its key; the payload is sent as given', () => {
    const payload = { teamId: 'team-1', commandId: 'c1', reservationId: 'r1', consumed: 2 };
    expect(ledgerBusMessage({ type: 'SettleCredits', payload }, { 'correlation-id': 'corr-1' })).toEqual({
      id: 'c1',
      key: 'team-1',
      type: 'SettleCredits',
      payload: { teamId: 'team-1', commandId: 'c1', reservationId: 'r1', consumed: 2 },
      headers: { 'correlation-id': 'corr-1' },
    });
  });

  it('without headers the message has none (the ledger then correlates by the message id)', () => {
    const message = ledgerBusMessage({
      type: 'GrantCredits',
      payload: { teamId: 'team-2', commandId: 'g1', pool: 'adhoc', amount: 5, reason: 'demo' },
    });
    expect(message).toEqual({
      id: 'g1',
      key: 'team-2',
      type: 'GrantCredits',
      payload: { teamId: 'team-2', commandId: 'g1', pool: 'adhoc', amount: 5, reason: 'demo' },
    });
    expect('headers' in message).toBe(false);
  });
});

describe('isLedgerErrorReply: given a reply, expect whether it is a rule break', () => {
  it.each([
    [{ error: { code: 'reservation_not_found', message: 'no reservation r1' } }, true],
    [{ reservationId: 'r1', returned: { maps: 0, adhoc: 5 }, expiredOnReturn: 0 }, false],
    [null, false],
    ['error', false],
  ])('%p → %p', (reply, expected) => {
    expect(isLedgerErrorReply(reply)).toBe(expected);
  });
});
