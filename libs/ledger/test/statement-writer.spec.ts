import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatementLine } from '@analyst/contracts';
import { HashChain } from '../src/audit/hash-chain';
import { STATEMENT_FORMAT, STATEMENT_VERSION, StatementWriter } from '../src/audit/statement-export';

function lineOf(i: number, note: string): StatementLine {
  return {
    teamId: `team_${i % 3}`,
    revision: Math.floor(i / 3),
    position: i + 1,
    eventId: `ev_${i}`,
    occurredAt: '2026-04-02T08:00:00.000Z',
    type: 'CreditsGranted',
    commandId: `g${i}`,
    reservationId: i % 2 ? `p${i}` : null,
    month: '2026-04',
    change: { maps: 0, adhoc: 1, reserved: 0 },
    balances: { maps: 0, adhoc: Math.floor(i / 3) + 1, reserved: 0 },
    note,
  };
}

/** The statement as the generic code writes it: JSON.stringify of each record HashChain.link makes. */
function expectedStatement(header: Record<string, unknown>, lines: StatementLine[]): string {
  const chain = new HashChain();
  const records: Record<string, unknown>[] = [
    chain.link({ kind: 'header', format: STATEMENT_FORMAT, version: STATEMENT_VERSION, ...header }),
  ];
  lines.forEach((line, i) => records.push(chain.link({ kind: 'line', seq: i + 1, line })));
  const teams: Record<string, { lines: number; revision: number; balances: StatementLine['balances'] }> = {};
  for (const line of lines) {
    const team = teams[line.teamId] ?? { lines: 0, revision: -1, balances: line.balances };
    teams[line.teamId] = { lines: team.lines + 1, revision: line.revision, balances: line.balances };
  }
  const sorted = Object.fromEntries(Object.entries(teams).sort(([a], [b]) => (a < b ? -1 : 1)));
  records.push(chain.link({ kind: 'end', lines: lines.length, teams: sorted }));
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

describe('StatementWriter', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'statement-writer-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the bytes of the generic rendering across many chunks, multi-byte text and a line larger than a chunk', async () => {
    const lines = Array.from({ length: 6000 }, (_, i) =>
      lineOf(
        i,
        i === 4000 ? `big ${'é€😀"\\\n'.repeat(300_000)}` : `note ${i} ${i % 7 ? 'plain' : 'é "q" \u2028'}`,
      ),
    );
    const header = { generatedAt: '2026-04-02T08:00:00.000Z', team: null, headPosition: 6000 };
    const path = join(dir, 'statement.jsonl');
    const writer = new StatementWriter(path, header);
    for (const line of lines) await writer.write(line);
    const closed = await writer.close();
    const expected = expectedStatement(header, lines);
    expect(Buffer.byteLength(expected)).toBeGreaterThan(4 * 1024 * 1024);
    expect(readFileSync(path, 'utf8') === expected).toBe(true);
    expect(closed.lines).toBe(6000);
    expect(closed.head).toBe(JSON.parse(expected.trimEnd().split('\n').pop()!).hash);
  });
});
