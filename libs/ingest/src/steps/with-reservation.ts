import { createHash } from 'node:crypto';
import type { CreditSource } from '@analyst/contracts';
import type { LedgerCallBudget, LedgerClient } from '../pipeline/ledger-client';

/**
 * A reservation id that a retried request (or a restart) derives again for the same job and key:
 * an add's normalized link, a refresh's post id, a held post's resume.
 */
export function reservationIdFor(jobId: string, key: string): string {
  return `rs_${jobId}_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/** One unit reserved for one post (`reservationId` comes from the job and the post or link). */
export interface ReservationSpec {
  teamId: string;
  reservationId: string;
  unitCost: number;
  source: CreditSource;
  correlationId: string;
  /** Inside an HTTP request, the request path's budget; absent, the ledger client's default. */
  budget?: LedgerCallBudget;
}

/** Unfunded (`act` did not run), done, or failed (`act` threw; the reservation was refunded). */
export type Reserved<T> =
  { outcome: 'unfunded' } | { outcome: 'done'; value: T } | { outcome: 'failed'; error: unknown };

/**
 * Reserve, act, refund on failure: reserves one unit (command ids from the reservation id, so a
 * retry gets the ledger's first answer); when it is not funded, `act` does not run. When `act`
 * throws, the reservation is refunded (`create_failed`) and the error is returned for the caller to
 * classify; `act` catches what must keep the reservation (the post exists after all) itself. A
 * failing reserve or refund (the ledger is unreachable) is thrown. With no reservation (`null`: a
 * free refresh) `act` just runs, and its failure is returned the same way.
 */
export async function withReservation<T>(
  ledger: LedgerClient,
  reservation: ReservationSpec | null,
  act: () => Promise<T>,
): Promise<Reserved<T>> {
  if (reservation !== null && !(await reserve(ledger, reservation))) return { outcome: 'unfunded' };
  try {
    return { outcome: 'done', value: await act() };
  } catch (error) {
    if (reservation !== null) await refund(ledger, reservation);
    return { outcome: 'failed', error };
  }
}

async function reserve(ledger: LedgerClient, r: ReservationSpec): Promise<boolean> {
  const reserved = await ledger.reserve(
    r.teamId,
    {
      commandId: `reserve-${r.reservationId}`,
      reservationId: r.reservationId,
      units: 1,
      unitCost: r.unitCost,
      source: r.source,
    },
    r.correlationId,
    r.budget,
  );
  return reserved.fundedUnits >= 1;
}

async function refund(ledger: LedgerClient, r: ReservationSpec): Promise<void> {
  await ledger.refund(
    r.teamId,
    { commandId: `refund-${r.reservationId}`, reservationId: r.reservationId, reason: 'create_failed' },
    r.correlationId,
    r.budget,
  );
}
