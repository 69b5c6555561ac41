import type { ReadStore } from '@analyst/platform';
import { LEDGER_RESERVATIONS } from '../ledger.tokens';
import type {
  LedgerReservationsDoc,
  OutstandingReservation,
} from '../projections/ledger-reservations.projector';

/** A team's outstanding (open) reservations, oldest first. */
export async function readOutstandingReservations(
  store: ReadStore,
  teamId: string,
): Promise<OutstandingReservation[]> {
  const doc = await store.collection<LedgerReservationsDoc>(LEDGER_RESERVATIONS).findOne({ _id: teamId });
  return doc?.open ?? [];
}
