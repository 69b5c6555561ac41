import { RequestTimeoutError, type MessageBus, type OutgoingMessage } from '@analyst/platform';
import { DEFAULT_INGEST_OPTIONS } from '../src/ingest.tokens';
import { LedgerClient, LedgerRuleError } from '../src/pipeline/ledger-client';

/** A bus that records each request and answers from a list: a value, or an error to throw. */
function recordingBus(answers: unknown[]) {
  const sent: { topic: string; message: OutgoingMessage; timeoutMs: number }[] = [];
  const bus = {
    request: async (topic: string, message: OutgoingMessage, timeoutMs: number) => {
      sent.push({ topic, message, timeoutMs });
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { bus: bus as unknown as MessageBus, sent };
}

const client = (bus: MessageBus) =>
  new LedgerClient(bus, { ...DEFAULT_INGEST_OPTIONS, ledgerTimeoutMs: 700 });

const RESERVE = { commandId: 'c1', reservationId: 'r1', units: 2, unitCost: 5, source: 'auto' as const };

describe('LedgerClient: given a ledger call, expect the bus message it sends and what it makes of the reply', () => {
  it('sends each request as the message the ledger reads: command id as id, team id as key and in the payload', async () => {
    const reserved = { reservationId: 'r1', fundedUnits: 2, amount: 10, fromMaps: 10, fromAdhoc: 0 };
    const settled = {
      reservationId: 'r1',
      consumedUnits: 1,
      charged: { maps: 5, adhoc: 0 },
      returned: { maps: 5, adhoc: 0 },
      expiredOnReturn: 0,
    };
    const refunded = { reservationId: 'r2', returned: { maps: 0, adhoc: 5 }, expiredOnReturn: 0 };
    const { bus, sent } = recordingBus([reserved, settled, refunded]);
    const ledger = client(bus);
    expect(await ledger.reserve('team-1', RESERVE, 'corr-1')).toEqual(reserved);
    expect(
      await ledger.settle('team-1', { commandId: 'c2', reservationId: 'r1', consumed: 1 }, 'corr-2'),
    ).toEqual(settled);
    expect(
      await ledger.refund(
        'team-1',
        { commandId: 'c3', reservationId: 'r2', reason: 'create_failed' },
        'corr-3',
      ),
    ).toEqual(refunded);
    expect(sent).toEqual([
      {
        topic: 'analyst.commands.ledger',
        timeoutMs: 700,
        message: {
          id: 'c1',
          key: 'team-1',
          type: 'ReserveCredits',
          payload: { ...RESERVE, teamId: 'team-1' },
          headers: { 'correlation-id': 'corr-1' },
        },
      },
      {
        topic: 'analyst.commands.ledger',
        timeoutMs: 700,
        message: {
          id: 'c2',
          key: 'team-1',
          type: 'SettleCredits',
          payload: { commandId: 'c2', reservationId: 'r1', consumed: 1, teamId: 'team-1' },
          headers: { 'correlation-id': 'corr-2' },
        },
      },
      {
        topic: 'analyst.commands.ledger',
        timeoutMs: 700,
        message: {
          id: 'c3',
          key: 'team-1',
          type: 'RefundCredits',
          payload: { commandId: 'c3', reservationId: 'r2', reason: 'create_failed', teamId: 'team-1' },
          headers: { 'correlation-id': 'corr-3' },
        },
      },
    ]);
  });

  it('a rule-break reply throws LedgerRuleError with its code; it is not sent again', async () => {
    const { bus, sent } = recordingBus([
      { error: { code: 'reservation_exists', message: 'reservation r1 already exists' } },
    ]);
    const error = await client(bus)
      .reserve('team-1', RESERVE, 'corr-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerRuleError);
    expect((error as LedgerRuleError).code).toBe('reservation_exists');
    expect((error as LedgerRuleError).message).toBe('reservation_exists: reservation r1 already exists');
    expect(sent).toHaveLength(1);
  });

  it('a try without a reply is sent again, the same message, the first with the budget’s wait', async () => {
    const reserved = { reservationId: 'r1', fundedUnits: 2, amount: 10, fromMaps: 10, fromAdhoc: 0 };
    const timeout = new RequestTimeoutError('analyst.commands.ledger', 50);
    const { bus, sent } = recordingBus([timeout, reserved]);
    const budget = { firstTimeoutMs: 50, attempts: 3, checkBrokerAfterTimeout: false };
    expect(await client(bus).reserve('team-1', RESERVE, 'corr-1', budget)).toEqual(reserved);
    expect(sent.map((s) => s.timeoutMs)).toEqual([50, 700]);
    expect(sent[1].message).toEqual(sent[0].message);
  });
});
