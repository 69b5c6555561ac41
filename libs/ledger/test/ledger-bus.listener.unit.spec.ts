import type { MessageBus } from '@analyst/platform';
import { LedgerError } from '@analyst/domain-ledger';
import { LedgerBusListener } from '../src/bus/ledger-bus.listener';
import type { LedgerService } from '../src/ledger.service';

/** Records each call the listener makes; `fail` makes the next call throw. */
class RecordingLedger {
  readonly calls: unknown[][] = [];
  fail: Error | null = null;
  private record(name: string, args: unknown[]): Promise<unknown> {
    this.calls.push([name, ...args]);
    if (this.fail) return Promise.reject(this.fail);
    return Promise.resolve({ ok: name });
  }
  reserve = (...args: unknown[]) => this.record('reserve', args);
  settle = (...args: unknown[]) => this.record('settle', args);
  refund = (...args: unknown[]) => this.record('refund', args);
  grant = (...args: unknown[]) => this.record('grant', args);
}

const request = (type: string, payload: unknown, headers: Record<string, string> = {}) => ({
  id: 'cmd_1',
  key: 'team-1',
  topic: 'analyst.commands.ledger',
  type,
  payload,
  headers,
});

/** One well-formed command of each request type, without its `teamId`. */
const COMMANDS = {
  ReserveCredits: { commandId: 'c1', reservationId: 'r1', units: 3, unitCost: 5, source: 'auto' },
  SettleCredits: { commandId: 'c1', reservationId: 'r1', consumed: 2 },
  RefundCredits: { commandId: 'c1', reservationId: 'r1', reason: 'create_failed' },
  GrantCredits: { commandId: 'c1', pool: 'adhoc', amount: 100, reason: 'bought' },
};

describe('LedgerBusListener: given a ledger request message, expect the ledger call and its reply', () => {
  let ledger: RecordingLedger;
  let listener: LedgerBusListener;
  beforeEach(() => {
    ledger = new RecordingLedger();
    listener = new LedgerBusListener({} as MessageBus, ledger as unknown as LedgerService);
  });

  it.each([
    ['ReserveCredits', 'reserve'],
    ['SettleCredits', 'settle'],
    ['RefundCredits', 'refund'],
    ['GrantCredits', 'grant'],
  ] as const)(
    '%s → ledger.%s for the team of the payload, the rest of the payload as the command',
    async (type, call) => {
      const reply = await listener.handle(
        request(type, { teamId: 'team-1', ...COMMANDS[type] }, { 'correlation-id': 'corr-4' }),
      );
      expect(reply).toEqual({ ok: call });
      expect(ledger.calls).toEqual([
        [call, 'team-1', COMMANDS[type], { correlationId: 'corr-4', causationId: 'cmd_1', teamId: 'team-1' }],
      ]);
    },
  );

  it('without a correlation header the message id correlates', async () => {
    await listener.handle(request('GrantCredits', { teamId: 'team-1', ...COMMANDS.GrantCredits }));
    expect(ledger.calls[0][3]).toEqual({ correlationId: 'cmd_1', causationId: 'cmd_1', teamId: 'team-1' });
  });

  it('fields the command does not have are not passed on', async () => {
    await listener.handle(
      request('SettleCredits', { teamId: 'team-1', ...COMMANDS.SettleCredits, at: '1999-01-01', extra: 1 }),
    );
    expect(ledger.calls[0][2]).toEqual(COMMANDS.SettleCredits);
  });

  it('an unknown command type → an invalid_command reply, no ledger call', async () => {
    expect(await listener.handle(request('MintCredits', { teamId: 'team-1' }))).toEqual({
      error: { code: 'invalid_command', message: 'unknown ledger command type MintCredits' },
    });
    expect(ledger.calls).toEqual([]);
  });

  it.each([
    ['no teamId', { ...COMMANDS.SettleCredits }, 'teamId must be a non-empty string'],
    ['an empty teamId', { teamId: '', ...COMMANDS.SettleCredits }, 'teamId must be a non-empty string'],
    ['no payload', null, 'teamId must be a non-empty string'],
    ['a string payload', 'team-1', 'teamId must be a non-empty string'],
    [
      'consumed as a string',
      { teamId: 'team-1', ...COMMANDS.SettleCredits, consumed: '2' },
      'consumed must be an integer of at least 0',
    ],
    [
      'no reservationId',
      { teamId: 'team-1', commandId: 'c1', consumed: 2 },
      'reservationId must be a non-empty string',
    ],
  ])(
    'a malformed SettleCredits (%s) → an invalid_command reply, no ledger call',
    async (_, payload, message) => {
      expect(await listener.handle(request('SettleCredits', payload))).toEqual({
        error: { code: 'invalid_command', message },
      });
      expect(ledger.calls).toEqual([]);
    },
  );

  it('a rule break comes back as an error reply; any other failure fails the request', async () => {
    ledger.fail = new LedgerError('reservation_not_found', 'no reservation r9');
    const settle = request('SettleCredits', {
      teamId: 'team-1',
      ...COMMANDS.SettleCredits,
      reservationId: 'r9',
    });
    expect(await listener.handle(settle)).toEqual({
      error: { code: 'reservation_not_found', message: 'no reservation r9' },
    });
    const down = new Error('store down');
    ledger.fail = down;
    await expect(listener.handle(settle)).rejects.toBe(down);
  });
});
