import type { MessageBus } from '@analyst/platform';
import { LedgerError } from '@analyst/domain-ledger';
import { LedgerCommandHandler } from '../src/bus/ledger-command.handler';
import type { LedgerService } from '../src/ledger.service';

/** Records each call the handler makes; `fail` makes the next call throw. */
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

const request = (type: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) => ({
  id: 'cmd_1',
  key: 'team-1',
  topic: 'analyst.commands.ledger',
  type,
  payload,
  headers,
});

describe('LedgerCommandHandler: given a ledger command message, expect the ledger call and its reply', () => {
  let ledger: RecordingLedger;
  let handler: LedgerCommandHandler;
  beforeEach(() => {
    ledger = new RecordingLedger();
    handler = new LedgerCommandHandler({} as MessageBus, ledger as unknown as LedgerService);
  });

  it.each([
    ['ReserveCredits', 'reserve'],
    ['SettleCredits', 'settle'],
    ['RefundCredits', 'refund'],
    ['GrantCredits', 'grant'],
  ])(
    '%s → ledger.%s for the team of the payload, the rest of the payload as the command',
    async (type, call) => {
      const reply = await handler.handle(
        request(
          type,
          { teamId: 'team-1', commandId: 'c1', reservationId: 'r1' },
          { 'correlation-id': 'corr-4' },
        ),
      );
      expect(reply).toEqual({ ok: call });
      expect(ledger.calls).toEqual([
        [
          call,
          'team-1',
          { commandId: 'c1', reservationId: 'r1' },
          { correlationId: 'corr-4', causationId: 'cmd_1', teamId: 'team-1' },
        ],
      ]);
    },
  );

  it('without a correlation header the message id correlates', async () => {
    await handler.handle(request('GrantCredits', { teamId: 'team-1', commandId: 'c2' }));
    expect(ledger.calls[0][3]).toEqual({ correlationId: 'cmd_1', causationId: 'cmd_1', teamId: 'team-1' });
  });

  it('an unknown command type → an invalid_command reply, no ledger call', async () => {
    expect(await handler.handle(request('MintCredits', { teamId: 'team-1' }))).toEqual({
      error: { code: 'invalid_command', message: 'unknown ledger command type MintCredits' },
    });
    expect(ledger.calls).toEqual([]);
  });

  it('a rule break comes back as an error reply; any other failure fails the request', async () => {
    ledger.fail = new LedgerError('reservation_not_found', 'no reservation r9');
    expect(await handler.handle(request('SettleCredits', { teamId: 'team-1', reservationId: 'r9' }))).toEqual(
      {
        error: { code: 'reservation_not_found', message: 'no reservation r9' },
      },
    );
    const down = new Error('store down');
    ledger.fail = down;
    await expect(handler.handle(request('SettleCredits', { teamId: 'team-1' }))).rejects.toBe(down);
  });
});
