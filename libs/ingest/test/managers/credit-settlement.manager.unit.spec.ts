import type { PostCancelled, PostCreated, PostFetchFailed, PostScored } from '@analyst/contracts';
import { delivered, recorded } from '@analyst/testing';
import { CreditSettlementManager } from '../../src/pipeline/credit-settlement.manager';
import { LedgerClient, LedgerRuleError } from '../../src/pipeline/ledger-client';
import { NO_BUS } from './recording-ports';

/** Records every ledger command; `reply` decides what the ledger answers. */
class RecordingLedger {
  readonly sent: { type: 'settle' | 'refund'; teamId: string; command: unknown; correlationId: string }[] =
    [];
  reply: (type: 'settle' | 'refund') => Promise<unknown> = async () => ({});

  settle(teamId: string, command: unknown, correlationId: string): Promise<unknown> {
    this.sent.push({ type: 'settle', teamId, command, correlationId });
    return this.reply('settle');
  }

  refund(teamId: string, command: unknown, correlationId: string): Promise<unknown> {
    this.sent.push({ type: 'refund', teamId, command, correlationId });
    return this.reply('refund');
  }
}

const version = {
  postId: 'p1',
  dataVersion: 2,
  jobId: 'j1',
  reservationId: 'res_1',
  at: '2026-03-10T12:00:00.000Z',
};
const scored = (totalComments: number): PostScored => ({
  type: 'PostScored',
  data: { ...version, scorer: { name: 'rules', version: '1' }, topics: [], messages: [], totalComments },
});
const failed = (outcome: PostFetchFailed['data']['outcome']): PostFetchFailed => ({
  type: 'PostFetchFailed',
  data: { ...version, outcome, reason: 'gone' },
});
const cancelled: PostCancelled = { type: 'PostCancelled', data: { ...version, reason: 'job cancelled' } };
const at = { id: 'ev_outcome', streamId: 'post-p1', correlationId: 'corr-9', teamId: 'team-1' };

describe('CreditSettlementManager: given a post outcome, expect the ledger command', () => {
  let ledger: RecordingLedger;
  let manager: CreditSettlementManager;
  beforeEach(() => {
    ledger = new RecordingLedger();
    manager = new CreditSettlementManager(NO_BUS, ledger as unknown as LedgerClient);
  });

  it('PostScored with comments → SettleCredits of one unit, the event id as command id', async () => {
    await manager.handle(delivered(recorded(scored(12), at)));
    expect(ledger.sent).toEqual([
      {
        type: 'settle',
        teamId: 'team-1',
        command: { commandId: 'ev_outcome', reservationId: 'res_1', consumed: 1 },
        correlationId: 'corr-9',
      },
    ]);
  });

  it('PostScored with no comments → RefundCredits, reason no_comments', async () => {
    await manager.handle(delivered(recorded(scored(0), at)));
    expect(ledger.sent).toEqual([
      {
        type: 'refund',
        teamId: 'team-1',
        command: { commandId: 'ev_outcome', reservationId: 'res_1', reason: 'no_comments' },
        correlationId: 'corr-9',
      },
    ]);
  });

  it.each(['failed', 'unreachable', 'holding'] as const)(
    'PostFetchFailed (%s) → RefundCredits with that reason',
    async (outcome) => {
      await manager.handle(delivered(recorded(failed(outcome), at)));
      expect(ledger.sent).toEqual([
        {
          type: 'refund',
          teamId: 'team-1',
          command: { commandId: 'ev_outcome', reservationId: 'res_1', reason: outcome },
          correlationId: 'corr-9',
        },
      ]);
    },
  );

  it('PostCancelled → RefundCredits, reason cancelled', async () => {
    await manager.handle(delivered(recorded(cancelled, at)));
    expect(ledger.sent.map((s) => [s.type, s.command])).toEqual([
      ['refund', { commandId: 'ev_outcome', reservationId: 'res_1', reason: 'cancelled' }],
    ]);
  });

  it('an included refresh (no reservation) or an event without a team → no command', async () => {
    const free: PostScored = { ...scored(3), data: { ...scored(3).data, reservationId: null } };
    await manager.handle(delivered(recorded(free, at)));
    await manager.handle(delivered(recorded(scored(3), { ...at, teamId: null })));
    expect(ledger.sent).toEqual([]);
  });

  it('an event it does not handle (PostCreated) → no command', async () => {
    const created = { type: 'PostCreated', data: { postId: 'p1' } } as unknown as PostCreated;
    await manager.handle(delivered(recorded(created, at)));
    expect(ledger.sent).toEqual([]);
  });

  it('a redelivered outcome sends the same command id, and the ledger answering "already settled" ends it', async () => {
    await manager.handle(delivered(recorded(scored(12), at)));
    ledger.reply = async () => {
      throw new LedgerRuleError({ error: { code: 'reservation_already_settled', message: 'settled' } });
    };
    await expect(manager.handle(delivered(recorded(scored(12), at)))).resolves.toBeUndefined();
    expect(ledger.sent).toHaveLength(2);
    expect(ledger.sent[1]).toEqual(ledger.sent[0]);
  });

  it('any other ledger rule is final (logged, not retried); a transport failure is rethrown for redelivery', async () => {
    ledger.reply = async () => {
      throw new LedgerRuleError({ error: { code: 'reservation_not_found', message: 'no such reservation' } });
    };
    await expect(manager.handle(delivered(recorded(scored(12), at)))).resolves.toBeUndefined();
    const down = new Error('broker down');
    ledger.reply = async () => {
      throw down;
    };
    await expect(manager.handle(delivered(recorded(scored(12), at)))).rejects.toBe(down);
  });
});
