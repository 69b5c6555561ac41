import type { LedgerEvent } from '@analyst/contracts';
import { reservationTerms, type ReservationTerms } from '@analyst/domain-ledger';
import type { Projector } from '@analyst/platform';
import { LEDGER_RESERVATIONS } from '../ledger.tokens';
import { ledgerTeamIds } from './ledger-balances.projector';

export interface OutstandingReservation extends ReservationTerms {
  reservedAt: string;
}

/** A team's open reservations; resolved ones leave the list (the statement keeps their history). */
export type LedgerReservationsDoc = {
  _id: string;
  teamId: string;
  open: OutstandingReservation[];
  amount: number;
};

/** The ledger events that open or resolve a reservation. */
type ReservationEvent = Extract<
  LedgerEvent,
  { type: 'CreditsReserved' | 'CreditsSettled' | 'CreditsRefunded' }
>;

export const ledgerReservationsProjector: Projector<LedgerReservationsDoc, ReservationEvent> = {
  name: 'ledger-reservations',
  collection: LEDGER_RESERVATIONS,
  eventTypes: ['CreditsReserved', 'CreditsSettled', 'CreditsRefunded'],
  documentIds: ledgerTeamIds,
  evolve(doc, event, id) {
    const current = doc ?? { _id: id, teamId: id, open: [], amount: 0 };
    let open = current.open;
    if (event.type === 'CreditsReserved') {
      open = [...open, { ...reservationTerms(event.data), reservedAt: event.metadata.occurredAt }];
    } else if (event.type === 'CreditsSettled' || event.type === 'CreditsRefunded') {
      const reservationId = event.data.reservationId;
      open = open.filter((r) => r.reservationId !== reservationId);
    }
    return { ...current, open, amount: open.reduce((sum, r) => sum + r.amount, 0) };
  },
};
