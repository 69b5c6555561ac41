import type { LedgerEvent } from '@analyst/contracts';
import { ledgerBalancesProjector } from '@analyst/ledger';
import { readTeamCreditsAt } from '@analyst/ledger-read';
import { MemoryReadStore, ProjectionRuntime, type EventStore, type RecordedEvent } from '@analyst/platform';
import { TeamCreditsReader } from '../src/public/team-credits';

const TEAM = 'tm_credits';
const STREAM = `ledger-${TEAM}`;
const NOV = new Date('2026-11-25T12:00:00Z');

/** The log's `readStream` over an array, recording where each read started. */
class FakeLog implements Pick<EventStore, 'readStream'> {
  readonly events: RecordedEvent[] = [];
  readonly reads: { streamId: string; from: number }[] = [];

  append(type: LedgerEvent['type'], data: Record<string, unknown>): void {
    const revision = this.events.filter((e) => e.streamId === STREAM).length;
    this.events.push({
      id: `ev${this.events.length}`,
      type,
      schemaVersion: 1,
      data: { commandId: `c${this.events.length}`, month: '2026-11', ...data },
      metadata: { correlationId: 'x', causationId: null, teamId: TEAM, occurredAt: NOV.toISOString() },
      streamId: STREAM,
      revision,
      position: this.events.length + 1,
    });
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    this.reads.push({ streamId, from: fromRevision });
    return this.events.filter((e) => e.streamId === streamId && e.revision >= fromRevision);
  }
}

function ledgerOf(log: FakeLog): void {
  log.append('MapAllotmentSet', { allotment: 100, previous: 0, adjustment: 100 });
  log.append('CreditsGranted', { pool: 'adhoc', amount: 40, reason: 'top-up' });
  log.append('CreditsReserved', {
    reservationId: 'r1',
    source: 'auto',
    requestedUnits: 30,
    fundedUnits: 30,
    unitCost: 1,
    amount: 30,
    fromMaps: 30,
    fromAdhoc: 0,
  });
}

describe('TeamCreditsReader: GET /team credits from the ledger stream', () => {
  it('folds the stream with no read model at all, and picks up each later event on the next read', async () => {
    const log = new FakeLog();
    const reader = new TeamCreditsReader(new MemoryReadStore(), log);
    expect(await reader.read(TEAM, NOV)).toEqual({ maps: 0, adhoc: 0, reserved: 0 });
    ledgerOf(log);
    expect(await reader.read(TEAM, NOV)).toEqual({ maps: 70, adhoc: 40, reserved: 30 });
    log.append('CreditsSettled', {
      reservationId: 'r1',
      consumedUnits: 25,
      charged: { maps: 25, adhoc: 0 },
      returned: { maps: 5, adhoc: 0 },
      expiredOnReturn: 0,
    });
    expect(await reader.read(TEAM, NOV)).toEqual({ maps: 75, adhoc: 40, reserved: 0 });
    // Each read asks only for what lies past the last event folded.
    expect(log.reads.map((r) => r.from)).toEqual([0, 0, 3]);
    // In a later month the MAPs are that month's allotment before the reset is written.
    expect(await reader.read(TEAM, new Date('2026-12-01T00:00:00Z'))).toEqual({
      maps: 100,
      adhoc: 40,
      reserved: 0,
    });
  });

  it("starts from the ledger's read model and its memo, and answers what the projector answers", async () => {
    const log = new FakeLog();
    ledgerOf(log);
    const store = new MemoryReadStore();
    const runtime = new ProjectionRuntime(store, [ledgerBalancesProjector]);
    await runtime.applyPage(log.events);
    log.append('CreditsRefunded', {
      reservationId: 'r1',
      reason: 'failed',
      returned: { maps: 30, adhoc: 0 },
      expiredOnReturn: 0,
    });
    const reader = new TeamCreditsReader(store, log);
    // The read model is one event behind the log; the reader is not.
    expect(await readTeamCreditsAt(store, TEAM, NOV)).toEqual({ maps: 70, adhoc: 40, reserved: 30 });
    expect(await reader.read(TEAM, NOV)).toEqual({ maps: 100, adhoc: 40, reserved: 0 });
    expect(log.reads).toEqual([{ streamId: STREAM, from: 3 }]);
    await runtime.applyPage(log.events.slice(3));
    expect(await readTeamCreditsAt(store, TEAM, NOV)).toEqual(await reader.read(TEAM, NOV));
  });

  it('reads the log once for requests that arrive while a read is out', async () => {
    const log = new FakeLog();
    ledgerOf(log);
    const reader = new TeamCreditsReader(new MemoryReadStore(), log);
    const answers = await Promise.all(Array.from({ length: 10 }, () => reader.read(TEAM, NOV)));
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(
      new Set([JSON.stringify({ maps: 70, adhoc: 40, reserved: 30 })]),
    );
    // The first alone, the other nine together.
    expect(log.reads).toHaveLength(2);
  });
});
