import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreditBalances, LedgerEventType } from '@analyst/contracts';
import { HashChain } from '../src/audit/hash-chain';
import { STATEMENT_FORMAT, STATEMENT_VERSION } from '../src/audit/statement-export';
import { verifyStatement } from '../src/audit/verify-statement';

const TEAM = 'team_rules';

type Change = [maps: number, adhoc: number, reserved: number];

/** A chained statement of one team whose balances follow from the changes, so only a change rule can break. */
function statementOf(lines: Array<[LedgerEventType, Change]>): string {
  const chain = new HashChain();
  const records: Record<string, unknown>[] = [
    chain.link({ kind: 'header', format: STATEMENT_FORMAT, version: STATEMENT_VERSION }),
  ];
  let balances: CreditBalances = { maps: 0, adhoc: 0, reserved: 0 };
  lines.forEach(([type, [maps, adhoc, reserved]], revision) => {
    balances = {
      maps: balances.maps + maps,
      adhoc: balances.adhoc + adhoc,
      reserved: balances.reserved + reserved,
    };
    const line = {
      teamId: TEAM,
      revision,
      position: revision + 1,
      type,
      change: { maps, adhoc, reserved },
      balances,
    };
    records.push(chain.link({ kind: 'line', seq: revision + 1, line }));
  });
  const teams = { [TEAM]: { lines: lines.length, revision: lines.length - 1, balances } };
  records.push(chain.link({ kind: 'end', lines: lines.length, teams }));
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

/** Credits to move: 10 MAPs and 10 Ad Hoc granted, 4 of them reserved. */
const FUNDED: Array<[LedgerEventType, Change]> = [
  ['CreditsGranted', [10, 0, 0]],
  ['CreditsGranted', [0, 10, 0]],
  ['CreditsReserved', [-2, -2, 4]],
];

describe('verifyStatement: the change each ledger event type can make', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'verify-rules-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const verify = async (name: string, lines: Array<[LedgerEventType, Change]>) => {
    const path = join(dir, `${name}.jsonl`);
    writeFileSync(path, statementOf(lines));
    return verifyStatement(path);
  };

  it('passes a statement in which every event type makes a change it can make', async () => {
    const result = await verify('every-type', [
      ...FUNDED,
      ['MapsReset', [-3, 0, 0]],
      ['MapAllotmentSet', [2, 0, 0]],
      ['CreditsReservationRejected', [0, 0, 0]],
      ['CreditsSettled', [0, 0, -1]],
      ['CreditsRefunded', [1, 1, -3]],
    ]);
    expect(result).toMatchObject({ ok: true, lines: 8, problem: null, teams: 1 });
  });

  it.each<[LedgerEventType, Change, string]>([
    ['CreditsGranted', [5, 5, 0], 'a grant adds a positive amount to exactly one pool'],
    ['CreditsGranted', [0, 0, 0], 'a grant adds a positive amount to exactly one pool'],
    ['CreditsGranted', [5, 0, 1], 'a grant does not change reserved'],
    ['MapsReset', [0, 1, 0], 'MapsReset changes MAPs only'],
    ['MapAllotmentSet', [1, 0, 1], 'MapAllotmentSet changes MAPs only'],
    [
      'CreditsReserved',
      [-1, 0, 2],
      'a reservation moves credits from the pools to reserved, no more and no less',
    ],
    [
      'CreditsReserved',
      [1, 0, -1],
      'a reservation moves credits from the pools to reserved, no more and no less',
    ],
    ['CreditsReservationRejected', [0, 0, 1], 'a rejected reservation changes nothing'],
    [
      'CreditsSettled',
      [1, 0, 0],
      'CreditsSettled releases reserved credits and returns at most those to the pools',
    ],
    [
      'CreditsRefunded',
      [0, -1, 1],
      'CreditsRefunded releases reserved credits and returns at most those to the pools',
    ],
  ])('fails %s with change %j: %s', async (type, change, rule) => {
    const result = await verify(`${type}-${change.join('_')}`, [...FUNDED, [type, change]]);
    const [maps, adhoc, reserved] = change;
    expect(result).toMatchObject({
      ok: false,
      failedAt: 5,
      problem: `statement line 4: team ${TEAM} revision 3 (${type}): change maps ${maps} / adhoc ${adhoc} / reserved ${reserved} is impossible: ${rule}`,
    });
  });

  it('fails a change its type can make that takes a balance below zero', async () => {
    const result = await verify('negative', [...FUNDED, ['MapsReset', [-9, 0, 0]]]);
    expect(result).toMatchObject({
      ok: false,
      failedAt: 5,
      problem: `statement line 4: team ${TEAM} revision 3 (MapsReset): maps balance -1 is negative`,
    });
  });
});
