import { decideLedger, initialLedgerState, LedgerError, type LedgerCommand } from '@analyst/domain-ledger';
import { parseLedgerBusRequest } from '../src/bus/ledger-bus-request.parser';

/** What a parse throws: the LedgerError's code and message, or null when it parsed. */
function refusal(type: string, payload: unknown): { code: string; message: string } | null {
  try {
    parseLedgerBusRequest(type, payload);
    return null;
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    return { code: error.code, message: error.message };
  }
}

/**
 * What the decider says of the same fields (before the boundary parsed them, it was the first to
 * read them): its `invalid_command` message, or null when the fields passed its checks.
 */
function deciderRefusal(type: string, fields: Record<string, unknown>): string | null {
  // The decider's input is typed; this test hands it the wire's untyped fields on purpose.
  const command = { type, data: { ...fields, at: '2026-03-10T12:00:00.000Z' } } as unknown as LedgerCommand;
  try {
    decideLedger(command, initialLedgerState());
    return null;
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    return error.code === 'invalid_command' ? error.message : null;
  }
}

const VALID = {
  ReserveCredits: { commandId: 'c1', reservationId: 'r1', units: 3, unitCost: 5, source: 'adhoc' },
  SettleCredits: { commandId: 'c2', reservationId: 'r1', consumed: 0 },
  RefundCredits: { commandId: 'c3', reservationId: 'r1', reason: 'create_failed' },
  GrantCredits: { commandId: 'c4', pool: 'map', amount: 1, reason: '' },
};

describe('parseLedgerBusRequest: given a message off the wire, expect the typed request or the refusal', () => {
  it.each(Object.entries(VALID))(
    'a well-formed %s parses into its request, teamId in the payload',
    (type, fields) => {
      expect(parseLedgerBusRequest(type, { ...fields, teamId: 'team-1' })).toEqual({
        type,
        payload: { teamId: 'team-1', ...fields },
      });
    },
  );

  it('keeps only the fields of the command', () => {
    expect(
      parseLedgerBusRequest('GrantCredits', { teamId: 'team-1', ...VALID.GrantCredits, at: 'x', units: 9 }),
    ).toEqual({ type: 'GrantCredits', payload: { teamId: 'team-1', ...VALID.GrantCredits } });
  });

  it('an unknown type is refused before the payload is read', () => {
    expect(refusal('MintCredits', null)).toEqual({
      code: 'invalid_command',
      message: 'unknown ledger command type MintCredits',
    });
    expect(refusal('reserveCredits', { teamId: 'team-1', ...VALID.ReserveCredits })).toEqual({
      code: 'invalid_command',
      message: 'unknown ledger command type reserveCredits',
    });
  });

  it.each([undefined, null, 42, 'team-1', [], {}, { teamId: '' }, { teamId: 7 }])(
    'a payload %p has no teamId: refused before its command fields',
    (payload) => {
      expect(refusal('SettleCredits', payload)).toEqual({
        code: 'invalid_command',
        message: 'teamId must be a non-empty string',
      });
    },
  );

  /** Each request type with each of its fields broken in turn (missing, wrong type, out of range). */
  const broken: [string, Record<string, unknown>][] = [];
  for (const [type, fields] of Object.entries(VALID)) {
    for (const name of Object.keys(fields)) {
      const { [name]: _dropped, ...rest } = fields as Record<string, unknown>;
      broken.push([type, rest]);
      broken.push([type, { ...fields, [name]: name === 'reason' ? 3 : '' }]);
      broken.push([type, { ...fields, [name]: -1 }]);
      broken.push([type, { ...fields, [name]: 1.5 }]);
    }
    broken.push([type, { commandId: 5, units: 'x', consumed: null, pool: 'gold', source: 'never' }]);
  }

  it.each(broken)('a malformed %s %j is refused with the message the decider gives', (type, fields) => {
    const expected = deciderRefusal(type, fields);
    expect(refusal(type, { teamId: 'team-1', ...fields })).toEqual(
      expected === null ? null : { code: 'invalid_command', message: expected },
    );
  });

  it('names the first broken field in the command order, as the decider does', () => {
    expect(refusal('ReserveCredits', { teamId: 't', commandId: 'c', units: 0, source: 'x' })).toEqual({
      code: 'invalid_command',
      message: 'reservationId must be a non-empty string',
    });
    expect(refusal('GrantCredits', { teamId: 't', commandId: 'c', pool: 'adhoc', amount: 2.5 })).toEqual({
      code: 'invalid_command',
      message: 'amount must be an integer of at least 1',
    });
    expect(refusal('RefundCredits', { teamId: 't', commandId: 'c', reservationId: 'r' })).toEqual({
      code: 'invalid_command',
      message: 'reason must be a string',
    });
  });
});
