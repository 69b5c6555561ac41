import { MemoryReadStore, ProjectionRuntime, ReadStoreCheckpointStore } from '@analyst/platform';
import { auditLedger, LEDGER_PROJECTION_CHECKPOINT, ledgerProjectors } from '@analyst/ledger';
import { ledgerKit, type LedgerKit } from './ledger-test-kit';
import {
  activity,
  plantReopenedReservation,
  project,
  readsAfter,
  reserve,
  settle,
} from './live-read-model-fixtures';

// The live read models of a busy system: the audit compares each document with the log at the
// revision it has applied, so lag is reported with its size and only a real difference fails.

describe('ledger audit against live read models', () => {
  let k: LedgerKit;
  let live: MemoryReadStore;
  let runtime: ProjectionRuntime;
  beforeEach(async () => {
    k = await ledgerKit();
    await activity(k);
    live = new MemoryReadStore();
    runtime = new ProjectionRuntime(live, ledgerProjectors);
  });
  afterEach(async () => {
    await k.close();
    await live.close();
  });

  it('passes a busy log: a document behind the replay is lag with its size, one written during the audit is compared further on', async () => {
    const checkpoints = new ReadStoreCheckpointStore(live);
    await checkpoints.save(LEDGER_PROJECTION_CHECKPOINT, await project(runtime, k.events));
    const bApplied = (await k.events.readStream('ledger-team_b')).at(-1)!;
    // team_b moves on; the live projection has not applied it yet when the audit runs.
    await reserve(k, 'team_b', 'team_b-r3');
    await settle(k, 'team_b', 'team_b-r2');
    const aReplayed = (await k.events.readStream('ledger-team_a')).at(-1)!.revision;
    // team_a moves on after the replay, before the audit reads its documents, and they apply it.
    const busy = readsAfter(live, async () => {
      await reserve(k, 'team_a', 'team_a-r3');
      await settle(k, 'team_a', 'team_a-r2');
      const newer = (await k.events.readStream('ledger-team_a')).filter((e) => e.revision > aReplayed);
      await runtime.applyPage(newer);
    });

    const report = await auditLedger(k.events, {
      charges: false,
      liveReadModels: busy,
      liveCheckpoint: { store: checkpoints, name: LEDGER_PROJECTION_CHECKPOINT },
    });

    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
    const b = await k.events.readStream('ledger-team_b');
    const bLag = {
      teamId: 'team_b',
      documentId: 'team_b',
      appliedRevision: bApplied.revision,
      appliedPosition: bApplied.position,
      headPosition: b.at(-1)!.position,
      events: 2,
    };
    expect(report.lag).toEqual([
      { readModel: 'ledger_balances', ...bLag },
      { readModel: 'ledger_reservations', ...bLag },
    ]);
    const liveA = report.comparisons.find((c) => c.source === 'live' && c.teamId === 'team_a')!;
    const aNow = (await k.events.readStream('ledger-team_a')).at(-1)!.revision;
    expect(aNow).toBe(aReplayed + 2);
    expect(liveA).toMatchObject({
      ok: true,
      appliedRevisions: { ledger_balances: aNow, ledger_reservations: aNow },
      openReservations: { recomputed: 1, readModel: 1 },
    });
    // The replay itself stopped where it started: the lag is measured against it.
    expect(report.teams.find((t) => t.teamId === 'team_a')!.events).toBe(aReplayed + 1);
  });

  it('fails a planted divergence (a settled reservation listed open), naming the team, the document and the events', async () => {
    await project(runtime, k.events);
    await plantReopenedReservation(live, 'team_b', 'team_b-r1');
    const b = await k.events.readStream('ledger-team_b');
    const reserved = b.find(
      (e) =>
        e.type === 'CreditsReserved' && (e.data as { reservationId: string }).reservationId === 'team_b-r1',
    )!;
    const settled = b.find((e) => e.type === 'CreditsSettled')!;

    const report = await auditLedger(k.events, { charges: false, liveReadModels: live });

    expect(report.ok).toBe(false);
    expect(report.lag).toEqual([]);
    expect(report.violations).toEqual([
      {
        teamId: 'team_b',
        eventId: settled.id,
        position: settled.position,
        revision: settled.revision,
        type: 'CreditsSettled',
        message:
          `live read model ledger_reservations/team_b (2 open) disagrees with the log (1 open) at revision ${settled.revision}: ` +
          `it lists reservation team_b-r1 as open, but the log closed it with CreditsSettled ${settled.id} (position ${settled.position}, revision ${settled.revision}) ` +
          `(reserved by CreditsReserved ${reserved.id} (position ${reserved.position}, revision ${reserved.revision}))`,
      },
    ]);
  });

  it('calls an event the checkpoint has passed but a document never applied lost, not late', async () => {
    const b = await k.events.readStream('ledger-team_b');
    const settled = b.find((e) => e.type === 'CreditsSettled')!;
    const checkpoints = new ReadStoreCheckpointStore(live);
    await checkpoints.save(
      LEDGER_PROJECTION_CHECKPOINT,
      await project(runtime, k.events, (e) => e.id === settled.id),
    );

    const report = await auditLedger(k.events, {
      charges: false,
      liveReadModels: live,
      liveCheckpoint: { store: checkpoints, name: LEDGER_PROJECTION_CHECKPOINT },
    });

    expect(report.ok).toBe(false);
    const before = b[settled.revision - 1];
    const lost = (readModel: string) =>
      `live read model ${readModel}/team_b applied revision ${before.revision} of ledger-team_b but not CreditsSettled ${settled.id} (position ${settled.position}, revision ${settled.revision}), although the projection's checkpoint (position ${report.liveCheckpoint!.position}) is past it: the read model skipped it`;
    expect(report.violations.map((v) => [v.eventId, v.message])).toEqual([
      [settled.id, lost('ledger_balances')],
      [settled.id, lost('ledger_reservations')],
    ]);
    expect(report.lag.map((l) => [l.readModel, l.events])).toEqual([
      ['ledger_balances', 1],
      ['ledger_reservations', 1],
    ]);
  });
});
