import type {
  Doc,
  EventStore,
  ProjectionRuntime,
  ReadCollection,
  ReadStore,
  RecordedEvent,
} from '@analyst/platform';
import { LEDGER_RESERVATIONS, type LedgerReservationsDoc } from '@analyst/ledger';
import type { LedgerKit } from './ledger-test-kit';

export async function reserve(k: LedgerKit, teamId: string, reservationId: string): Promise<void> {
  await k.ledger.reserve(
    teamId,
    { commandId: `r-${reservationId}`, reservationId, units: 2, unitCost: 1, source: 'auto' },
    { correlationId: 'c', teamId },
  );
}

export async function settle(k: LedgerKit, teamId: string, reservationId: string): Promise<void> {
  await k.ledger.settle(
    teamId,
    { commandId: `s-${reservationId}`, reservationId, consumed: 1 },
    { correlationId: 'c', teamId },
  );
}

/** Two teams, each with a grant, two reservations and one of them settled (r1 settled, r2 open). */
export async function activity(k: LedgerKit): Promise<void> {
  await k.createTeam('team_a', 'growth', 20);
  await k.createTeam('team_b', 'scale', 5);
  for (const teamId of ['team_a', 'team_b']) {
    await k.ledger.grant(
      teamId,
      { commandId: `g-${teamId}`, pool: 'adhoc', amount: 30, reason: 'purchase' },
      { correlationId: 'c', teamId },
    );
    await reserve(k, teamId, `${teamId}-r1`);
    await reserve(k, teamId, `${teamId}-r2`);
    await settle(k, teamId, `${teamId}-r1`);
  }
}

/** Applies the whole log (but what `skip` picks) to a live projection of the ledger read models; returns the last position. */
export async function project(
  runtime: ProjectionRuntime,
  events: EventStore,
  skip: (e: RecordedEvent) => boolean = () => false,
): Promise<number> {
  let last = -1;
  for await (const page of events.readAll(-1)) {
    await runtime.applyPage(page.filter((e) => !skip(e)));
    last = page[page.length - 1].position;
  }
  return last;
}

/**
 * The store as the audit sees it on a busy system: `during` runs once, before the first document is
 * read (after the replay), so writes land between the audit's two reads.
 */
export function readsAfter(store: ReadStore, during: () => Promise<void>): ReadStore {
  let ran: Promise<void> | null = null;
  const bound = <T extends object>(target: T, prop: string | symbol): unknown => {
    const value = Reflect.get(target, prop, target) as unknown;
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
  };
  return new Proxy(store, {
    get(target, prop) {
      if (prop !== 'collection') return bound(target, prop);
      return (name: string) =>
        new Proxy(target.collection(name), {
          get(collection: ReadCollection<Doc>, method) {
            if (method !== 'findOne') return bound(collection, method);
            return async (...args: Parameters<ReadCollection<Doc>['findOne']>) => {
              await (ran ??= during());
              return collection.findOne(...args);
            };
          },
        });
    },
  });
}

/**
 * The drift finance saw: a reservation the log settled listed open again in the team's document,
 * with the document's applied revision unchanged (a lost settle).
 */
export async function plantReopenedReservation(
  store: ReadStore,
  teamId: string,
  reservationId: string,
): Promise<void> {
  const reservations = store.collection<LedgerReservationsDoc>(LEDGER_RESERVATIONS);
  const doc = (await reservations.findOne({ _id: teamId }))!;
  const open = [{ ...doc.open[0], reservationId }, ...doc.open];
  await reservations.updateOne(
    { _id: teamId },
    { $set: { open, amount: open.reduce((sum, r) => sum + r.amount, 0) } },
  );
}
