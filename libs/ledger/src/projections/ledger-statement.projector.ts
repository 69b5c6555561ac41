import { LEDGER_EVENT_TYPES, type CreditBalances, type LedgerEvent } from '@analyst/contracts';
import { statementLine } from '@analyst/domain-ledger';
import type { Projector } from '@analyst/platform';
import { LEDGER_STATEMENT, STATEMENT_CHUNK } from '../ledger.tokens';
import { ledgerTeamIds } from './ledger-balances.projector';

const ZERO: CreditBalances = { maps: 0, adhoc: 0, reserved: 0 };

/** A statement line as stored: its running balances are filled in by the query from the chunk sums. */
export type StoredStatementLine = Omit<ReturnType<typeof statementLine>, 'balances'>;

/** Up to STATEMENT_CHUNK consecutive lines of one team's statement, with the sum of their changes. */
export type LedgerStatementDoc = {
  _id: string;
  teamId: string;
  chunk: number;
  lines: StoredStatementLine[];
  change: CreditBalances;
};

export function statementChunkId(teamId: string, chunk: number): string {
  return `${teamId}:${String(chunk).padStart(9, '0')}`;
}

export const ledgerStatementProjector: Projector<LedgerStatementDoc, LedgerEvent> = {
  name: 'ledger-statement',
  collection: LEDGER_STATEMENT,
  eventTypes: LEDGER_EVENT_TYPES,
  indexes: [{ keys: { teamId: 1, chunk: 1 }, unique: true, name: 'team_chunk' }],
  documentIds(event) {
    return ledgerTeamIds(event).map((teamId) =>
      statementChunkId(teamId, Math.floor(event.revision / STATEMENT_CHUNK)),
    );
  },
  evolve(doc, recorded, id) {
    const [teamId] = ledgerTeamIds(recorded);
    const current = doc ?? {
      _id: id,
      teamId,
      chunk: Math.floor(recorded.revision / STATEMENT_CHUNK),
      lines: [],
      change: ZERO,
    };
    const { balances: _after, ...line } = statementLine(recorded, ZERO);
    return {
      ...current,
      lines: [...current.lines, line],
      change: {
        maps: current.change.maps + line.change.maps,
        adhoc: current.change.adhoc + line.change.adhoc,
        reserved: current.change.reserved + line.change.reserved,
      },
    };
  },
};
