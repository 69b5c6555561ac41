import type { StatementLine } from '@analyst/contracts';
import { canonicalJson } from '../src/audit/canonical-json';
import { canonicalStatementLine, renderStatementLine } from '../src/audit/canonical-statement-line';

const line: StatementLine = {
  teamId: 'team_"q"',
  revision: 7,
  position: 1234,
  eventId: 'ev_7',
  occurredAt: '2026-04-02T08:00:00.000Z',
  type: 'CreditsRefunded',
  commandId: 'f7',
  reservationId: null,
  month: '2026-04',
  change: { maps: 0, adhoc: 2, reserved: -2 },
  balances: { maps: 498, adhoc: -0.5, reserved: 0 },
  note: 'failed: provider said "no"\n\u2028é',
};

describe('canonicalStatementLine', () => {
  it('renders the same bytes as the generic canonical JSON for a statement line', () => {
    const expected = canonicalJson(line);
    expect(canonicalStatementLine(line)).toBe(expected);
    expect(expected.startsWith('{"balances":{"adhoc":-0.5,"maps":498,"reserved":0},"change":')).toBe(true);
    const withReservation = { ...line, reservationId: 'p7', type: 'CreditsSettled' as const };
    expect(canonicalStatementLine(withReservation)).toBe(canonicalJson(withReservation));
  });

  it('falls back to the generic walk for any other shape (an extra, a missing or an undefined field)', () => {
    const extra = { ...line, extra: { b: 1, a: 2 } } as unknown as StatementLine;
    expect(canonicalStatementLine(extra)).toBe(canonicalJson(extra));
    expect(canonicalStatementLine(extra)).toContain('"extra":{"a":2,"b":1}');
    const { note: _note, ...missing } = line;
    expect(canonicalStatementLine(missing as StatementLine)).toBe(canonicalJson(missing));
    const undefinedNote = { ...line, note: undefined } as unknown as StatementLine;
    expect(canonicalStatementLine(undefinedNote)).toBe(canonicalJson(undefinedNote));
    expect(canonicalStatementLine(undefinedNote)).not.toContain('"note"');
    const oddBalances = {
      ...line,
      balances: { reserved: 0, maps: 1, adhoc: 2, extra: 3 },
    } as unknown as StatementLine;
    expect(canonicalStatementLine(oddBalances)).toBe(canonicalJson(oddBalances));
  });
});

describe('renderStatementLine', () => {
  const both = (l: StatementLine) => ({ canonical: canonicalJson(l), json: JSON.stringify(l) });

  it('renders canonicalJson and JSON.stringify of a line as statementLine makes it', () => {
    expect(renderStatementLine(line)).toEqual(both(line));
    const withReservation = { ...line, reservationId: 'p7', type: 'CreditsSettled' as const };
    expect(renderStatementLine(withReservation)).toEqual(both(withReservation));
    const large = { ...line, position: 1e21, change: { maps: -0, adhoc: 1.5e-7, reserved: 3 } };
    expect(renderStatementLine(large)).toEqual(both(large));
  });

  it('gives the generic bytes for any other shape (key order, extra, missing or odd fields)', () => {
    const { teamId, ...rest } = line;
    const reordered = { ...rest, teamId } as StatementLine;
    expect(renderStatementLine(reordered)).toEqual(both(reordered));
    expect(renderStatementLine(reordered).json.endsWith(`"teamId":${JSON.stringify(teamId)}}`)).toBe(true);
    const extra = { ...line, extra: { b: 1, a: 2 } } as unknown as StatementLine;
    expect(renderStatementLine(extra)).toEqual(both(extra));
    const undefinedNote = { ...line, note: undefined } as unknown as StatementLine;
    expect(renderStatementLine(undefinedNote)).toEqual(both(undefinedNote));
    const balancesOrder = { ...line, balances: { reserved: 0, maps: 1, adhoc: 2 } };
    expect(renderStatementLine(balancesOrder)).toEqual(both(balancesOrder));
    const notFinite = { ...line, change: { maps: NaN, adhoc: Infinity, reserved: 0 } };
    expect(renderStatementLine(notFinite)).toEqual(both(notFinite));
    const numericString = { ...line, revision: '7' } as unknown as StatementLine;
    expect(renderStatementLine(numericString)).toEqual(both(numericString));
  });
});
