import type { Doc, Projector, ReadModelSet } from '@analyst/platform';
import { ledgerBalancesProjector } from './ledger-balances.projector';
import { ledgerReservationsProjector } from './ledger-reservations.projector';
import { ledgerStatementProjector } from './ledger-statement.projector';

export * from './ledger-balances.projector';
export * from './ledger-reservations.projector';
export * from './ledger-statement.projector';

/** Every read model of the ledger, in one list so the service and the audit fold the same code. */
export const ledgerProjectors: Projector<Doc>[] = [
  ledgerBalancesProjector,
  ledgerReservationsProjector,
  ledgerStatementProjector,
];

/** The ledger service's read models in the shared read store (the read-model check's list). */
export const ledgerReadModels: ReadModelSet = { service: 'ledger', projectors: ledgerProjectors };
