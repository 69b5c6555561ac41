import type { ReadStore } from '@analyst/platform';
import { LEDGER_RESERVATIONS } from '../ledger.tokens';
import type { LedgerReservationsDoc } from '../projections/ledger-reservations.projector';

export interface OpenReservationsSummary {
  count: number;
  /** Age of the oldest open reservation at `now`; 0 when none is open. */
  oldestAgeSeconds: number;
}

/**
 * Every team's open reservations at `now`, from the reservations read model. Only teams holding at
 * least one open reservation are read, so the cost follows open reservations, not teams.
 */
export async function summarizeOpenReservations(
  store: ReadStore,
  now: Date,
): Promise<OpenReservationsSummary> {
  const docs = await store
    .collection<LedgerReservationsDoc>(LEDGER_RESERVATIONS)
    .find({ 'open.0': { $exists: true } }, { projection: { open: 1 } });
  let count = 0;
  let oldest = Number.POSITIVE_INFINITY;
  for (const doc of docs) {
    for (const reservation of doc.open ?? []) {
      count += 1;
      const at = Date.parse(reservation.reservedAt);
      if (Number.isFinite(at) && at < oldest) oldest = at;
    }
  }
  // A reservation stamped after `now` (clock skew between replicas) counts as age 0, never negative.
  const oldestAgeSeconds =
    count === 0 || !Number.isFinite(oldest) ? 0 : Math.max(0, (now.getTime() - oldest) / 1000);
  return { count, oldestAgeSeconds };
}
