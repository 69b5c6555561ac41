import { withReservation, type ReservationSpec } from '../src/steps/with-reservation';
import { WriteFence } from '../src/request/write-fence';
import type { LedgerClient } from '../src/pipeline/ledger-client';

const spec: ReservationSpec = {
  teamId: 'tm_1',
  reservationId: 'rs_1',
  unitCost: 2,
  source: 'auto',
  correlationId: 'c1',
};

function ledger(fundedUnits: number) {
  const calls: string[] = [];
  const client = {
    reserve: async (_t: string, command: { commandId: string }) => {
      calls.push(command.commandId);
      return { fundedUnits };
    },
    refund: async (_t: string, command: { commandId: string; reason: string }) => {
      calls.push(`${command.commandId}:${command.reason}`);
      return {};
    },
  };
  return { client: client as unknown as LedgerClient, calls };
}

describe('withReservation', () => {
  it('reserves one unit, then acts', async () => {
    const l = ledger(1);
    await expect(withReservation(l.client, spec, async () => 'made')).resolves.toEqual({
      outcome: 'done',
      value: 'made',
    });
    expect(l.calls).toEqual(['reserve-rs_1']);
  });

  it('does not act when the reservation is not funded', async () => {
    const l = ledger(0);
    const act = jest.fn();
    await expect(withReservation(l.client, spec, act)).resolves.toEqual({ outcome: 'unfunded' });
    expect(act).not.toHaveBeenCalled();
  });

  it('refunds create_failed when the act fails, and hands the error back', async () => {
    const l = ledger(1);
    const error = new Error('boom');
    await expect(withReservation(l.client, spec, () => Promise.reject(error))).resolves.toEqual({
      outcome: 'failed',
      error,
    });
    expect(l.calls).toEqual(['reserve-rs_1', 'refund-rs_1:create_failed']);
  });

  it('without a reservation just acts, and refunds nothing on failure', async () => {
    const l = ledger(1);
    await expect(
      withReservation(l.client, null, () => Promise.reject(new Error('x'))),
    ).resolves.toMatchObject({
      outcome: 'failed',
    });
    expect(l.calls).toEqual([]);
  });
});

describe('WriteFence', () => {
  it('waits once for the highest position recorded', async () => {
    const fence = new WriteFence();
    const waited: number[] = [];
    expect(fence.record({ position: 7, state: 'a' })).toEqual({ position: 7, state: 'a' });
    fence.record({ position: 3 });
    fence.record({ position: 9 });
    await fence.waitForReadModels({ waitFor: async (p) => void waited.push(p) });
    expect(waited).toEqual([9]);
    expect(fence.position).toBe(9);
  });
});
