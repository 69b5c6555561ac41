import type { CreditsReserved } from '@analyst/contracts';

/**
 * What a reservation holds, as its CreditsReserved event set it: kept by the ledger's own state
 * (`Reservation`) and by the open-reservations read model alike.
 */
export type ReservationTerms = Pick<
  CreditsReserved['data'],
  'reservationId' | 'source' | 'unitCost' | 'fundedUnits' | 'amount' | 'fromMaps' | 'fromAdhoc' | 'month'
>;

/** The terms in this order, which is the order the open-reservations read model stores them in. */
export function reservationTerms(d: CreditsReserved['data']): ReservationTerms {
  return {
    reservationId: d.reservationId,
    source: d.source,
    unitCost: d.unitCost,
    fundedUnits: d.fundedUnits,
    amount: d.amount,
    fromMaps: d.fromMaps,
    fromAdhoc: d.fromAdhoc,
    month: d.month,
  };
}
