import { timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { isLedgerEventType, type CreditBalances, type LedgerEventType } from '@analyst/contracts';
import { formatBalances } from './credit-balances';
import { chainHash, GENESIS_HASH } from './hash-chain';
import {
  STATEMENT_FORMAT,
  STATEMENT_VERSION,
  statementHmac,
  type StatementTeamTotal,
} from './statement-export';

export interface VerifyOptions {
  /** The chain head recorded when the statement was exported: any other head fails. */
  head?: string;
  /** The key the end record was signed with: a missing or wrong HMAC fails. */
  key?: string;
}

export interface VerifyResult {
  ok: boolean;
  lines: number;
  /** 1-based line number in the file of the first problem. */
  failedAt: number | null;
  problem: string | null;
  head: string | null;
  /** Teams the statement covers. */
  teams: number;
  /** `matched` when `head` was given and equals the statement's; `not pinned` without `head`. */
  headCheck: 'matched' | 'not pinned' | null;
  /** `valid` with `key`; `not checked` when signed but no key was given; `unsigned` otherwise. */
  signature: 'valid' | 'not checked' | 'unsigned' | null;
}

const FIGURES = ['maps', 'adhoc', 'reserved'] as const;

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function isBalances(value: unknown): value is CreditBalances {
  const b = value as Record<string, unknown> | null;
  return typeof b === 'object' && b !== null && FIGURES.every((f) => isCount(b[f]));
}

/** Whether a line's change is one its event type can make: the broken rule, or null. */
type ChangeRule = (change: CreditBalances, type: LedgerEventType) => string | null;

/** A grant adds to exactly one pool and leaves reserved alone. */
function grantRule(c: CreditBalances): string | null {
  if (!((c.maps > 0 && c.adhoc === 0) || (c.adhoc > 0 && c.maps === 0)))
    return 'a grant adds a positive amount to exactly one pool';
  return c.reserved === 0 ? null : 'a grant does not change reserved';
}

function mapsOnlyRule(c: CreditBalances, type: LedgerEventType): string | null {
  return c.adhoc === 0 && c.reserved === 0 ? null : `${type} changes MAPs only`;
}

function reservationRule(c: CreditBalances): string | null {
  return c.maps <= 0 && c.adhoc <= 0 && c.reserved === -(c.maps + c.adhoc)
    ? null
    : 'a reservation moves credits from the pools to reserved, no more and no less';
}

function rejectionRule(c: CreditBalances): string | null {
  return c.maps === 0 && c.adhoc === 0 && c.reserved === 0 ? null : 'a rejected reservation changes nothing';
}

function releaseRule(c: CreditBalances, type: LedgerEventType): string | null {
  return c.maps >= 0 && c.adhoc >= 0 && -c.reserved >= c.maps + c.adhoc
    ? null
    : `${type} releases reserved credits and returns at most those to the pools`;
}

/**
 * What each event type may do to the figures, from `balanceChange`: a rule broken here is a line
 * whose `change` no event of its type can produce.
 */
const CHANGE_RULES: Record<LedgerEventType, ChangeRule> = {
  CreditsGranted: grantRule,
  MapsReset: mapsOnlyRule,
  MapAllotmentSet: mapsOnlyRule,
  CreditsReserved: reservationRule,
  CreditsReservationRejected: rejectionRule,
  CreditsSettled: releaseRule,
  CreditsRefunded: releaseRule,
};

interface TeamRun {
  lines: number;
  revision: number;
  balances: CreditBalances;
}

/**
 * Checks a JSONL statement:
 * - the hash chain: any edited, dropped, inserted or reordered record breaks it;
 * - the arithmetic: per team, the previous line's balances plus this line's change equal this
 *   line's balances, no balance is negative, each change is one its event type can make, revisions
 *   run 0, 1, 2, … per team and log positions only grow;
 * - the end record: the line count, and (version 2) each team's line count, last revision and
 *   closing balances agree with the lines;
 * - with `head`, the chain head equals the one recorded at export; with `key`, the end record's HMAC.
 * Without `head` or `key`, a statement rewritten whole with a recomputed chain and consistent
 * figures passes: only the recorded head or the key tell it from the export.
 */
export async function verifyStatement(path: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const reader = createInterface({
    input: createReadStream(path, { encoding: 'utf8' }),
    crlfDelay: Infinity,
  });
  const walk: StatementWalk = {
    prev: GENESIS_HASH,
    seq: 0,
    ended: false,
    version: 0,
    team: null,
    lastPosition: -Infinity,
    signature: null,
    teams: new Map<string, TeamRun>(),
  };
  let fileLine = 0;
  const fail = (problem: string, at: number | null = fileLine): VerifyResult => {
    reader.close();
    return {
      ok: false,
      lines: walk.seq,
      failedAt: at,
      problem,
      head: null,
      teams: walk.teams.size,
      headCheck: null,
      signature: null,
    };
  };
  for await (const text of reader) {
    fileLine += 1;
    if (text.trim() === '') continue;
    const problem = readRecord(walk, text, fileLine === 1, path, options);
    if (problem) return fail(problem);
  }
  if (fileLine === 0) return fail('the file is empty', null);
  if (!walk.ended) return fail('the end record is missing (lines were dropped from the end)');
  if (options.head !== undefined && options.head.toLowerCase() !== walk.prev) {
    return fail(
      `the chain head ${walk.prev} is not the recorded head ${options.head}: the statement was rewritten (or it is another statement)`,
    );
  }
  return {
    ok: true,
    lines: walk.seq,
    failedAt: null,
    problem: null,
    head: walk.prev,
    teams: walk.teams.size,
    headCheck: options.head === undefined ? 'not pinned' : 'matched',
    signature: walk.signature,
  };
}

/** Where the check of a statement stands after the records read so far. */
interface StatementWalk {
  /** The hash of the last record (the chain head so far). */
  prev: string;
  /** Statement lines read. */
  seq: number;
  ended: boolean;
  /** The header's statement version. */
  version: number;
  /** The header's team, when the statement is of one team. */
  team: string | null;
  lastPosition: number;
  signature: VerifyResult['signature'];
  teams: Map<string, TeamRun>;
}

/** Checks one non-blank record of the file and advances the walk; the problem, or null. */
function readRecord(
  walk: StatementWalk,
  text: string,
  first: boolean,
  path: string,
  options: VerifyOptions,
): string | null {
  if (walk.ended) return 'content after the end record';
  if (first && (path.toLowerCase().endsWith('.csv') || text.startsWith('seq,teamId,'))) {
    return 'this is a .csv statement: a spreadsheet view that carries the line hashes but not the header and end records of the chain, so it cannot be verified; verify the JSONL export (`ledger audit --out statement.jsonl`)';
  }
  const record = parseRecord(text);
  if (typeof record === 'string') return record;
  const { hash, ...body } = record;
  // The end record's HMAC signs the chain head, so it sits outside the chain.
  const hmac = body.kind === 'end' ? body.hmac : undefined;
  if (body.kind === 'end') delete body.hmac;
  const chain = chainProblem(walk.prev, body, hash);
  if (chain) return chain;
  walk.prev = hash as string;
  if (first) return readHeader(walk, body);
  if (body.kind === 'line') return readLine(walk, body);
  if (body.kind === 'end') return readEnd(walk, body, hmac, options.key);
  return `unknown record kind ${String(body.kind)}`;
}

/** A line of the file as a JSON object, or the problem. */
function parseRecord(text: string): Record<string, unknown> | string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `not a JSON record (a statement is JSON lines written by \`ledger audit --out statement.jsonl\`)`;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'not a JSON record';
  return record;
}

/** Whether a record (without its hash) follows the previous one and matches its hash. */
function chainProblem(prev: string, body: Record<string, unknown>, hash: unknown): string | null {
  if (body.prev !== prev)
    return `does not follow the previous line (a line before it was edited, dropped or moved)`;
  if (chainHash(prev, body) !== hash) return 'its content does not match its hash (the line was edited)';
  return null;
}

/** The header record: the format and a version this CLI reads; records the version and team. */
function readHeader(walk: StatementWalk, body: Record<string, unknown>): string | null {
  if (body.kind !== 'header' || body.format !== STATEMENT_FORMAT)
    return `not a ${STATEMENT_FORMAT} file: the header record is missing`;
  if (!isCount(body.version) || body.version < 1 || body.version > STATEMENT_VERSION)
    return `statement version ${String(body.version)} is not one this CLI reads (1 to ${STATEMENT_VERSION})`;
  walk.version = body.version;
  walk.team = typeof body.team === 'string' ? body.team : null;
  return null;
}

/** A statement line record: its sequence number and arithmetic. */
function readLine(walk: StatementWalk, body: Record<string, unknown>): string | null {
  walk.seq += 1;
  const seq = walk.seq;
  if (body.seq !== seq) return `line ${String(body.seq)} found where line ${seq} belongs`;
  const problem = checkLine(body.line, walk.team, walk.teams, walk.lastPosition);
  if (problem) return `statement line ${seq}: ${problem}`;
  walk.lastPosition = (body.line as { position: number }).position;
  return null;
}

/** The end record: its counts and totals against the lines, and its signature. */
function readEnd(
  walk: StatementWalk,
  body: Record<string, unknown>,
  hmac: unknown,
  key: string | undefined,
): string | null {
  if (body.lines !== walk.seq)
    return `the end record counts ${String(body.lines)} lines but ${walk.seq} precede it`;
  if (walk.version >= 2) {
    const problem = checkTotals(body.teams, walk.teams);
    if (problem) return `the end record disagrees with the lines: ${problem}`;
  }
  const signature = checkSignature(hmac, key, walk.prev);
  if ('problem' in signature) return signature.problem;
  walk.signature = signature.signature;
  walk.ended = true;
  return null;
}

/** The end record's HMAC of the chain head against the key, when a key is given. */
function checkSignature(
  hmac: unknown,
  key: string | undefined,
  head: string,
): { problem: string } | { signature: VerifyResult['signature'] } {
  if (key === undefined) return { signature: hmac === undefined ? 'unsigned' : 'not checked' };
  if (typeof hmac !== 'string')
    return {
      problem:
        'the end record is not signed, but a key was given: the statement was not exported with this key, or its signature was removed',
    };
  const expected = Buffer.from(statementHmac(key, head), 'hex');
  const given = Buffer.from(hmac, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return {
      problem:
        'the end record HMAC does not match this key: the statement was rewritten, or signed with another key',
    };
  return { signature: 'valid' };
}

/** The fields of a statement line this check reads. */
interface CheckedLine {
  teamId: string;
  revision: number;
  position: number;
  type: string;
  change: CreditBalances;
  balances: CreditBalances;
}

/** A record's statement line with every field it must have, or the problem. */
function lineFields(value: unknown): CheckedLine | string {
  const line = value as Record<string, unknown> | null;
  if (typeof line !== 'object' || line === null) return 'no statement line in the record';
  const { teamId, revision, position, type, change, balances } = line;
  if (
    typeof teamId !== 'string' ||
    !isCount(revision) ||
    !isCount(position) ||
    typeof type !== 'string' ||
    !isBalances(change) ||
    !isBalances(balances)
  ) {
    return 'the line lacks teamId, revision, position, type, change or balances';
  }
  return { teamId, revision, position, type, change, balances };
}

/** Each balance must be the previous one plus the change, and never negative. */
function balanceProblem(
  previous: CreditBalances,
  change: CreditBalances,
  balances: CreditBalances,
): string | null {
  for (const figure of FIGURES) {
    const expected = previous[figure] + change[figure];
    if (balances[figure] !== expected) {
      return `${figure} balance ${balances[figure]} is not the previous ${previous[figure]} plus the change ${change[figure]} (= ${expected})`;
    }
    if (balances[figure] < 0) return `${figure} balance ${balances[figure]} is negative`;
  }
  return null;
}

/** The arithmetic of one statement line against the team's previous line; advances the team's run. */
function checkLine(
  value: unknown,
  team: string | null,
  teams: Map<string, TeamRun>,
  lastPosition: number,
): string | null {
  const line = lineFields(value);
  if (typeof line === 'string') return line;
  const { teamId, revision, position, type, change, balances } = line;
  const where = `team ${teamId} revision ${revision} (${type})`;
  if (team !== null && teamId !== team) return `${where}: the statement is of team ${team} only`;
  if (position <= lastPosition)
    return `${where}: log position ${position} does not follow ${lastPosition} (lines out of log order)`;
  if (!isLedgerEventType(type)) return `${where}: unknown event type`;
  const run = teams.get(teamId) ?? { lines: 0, revision: -1, balances: { maps: 0, adhoc: 0, reserved: 0 } };
  if (revision !== run.revision + 1)
    return `${where}: follows revision ${run.revision} of the team (a line of the team was dropped, added or moved)`;
  const rule = CHANGE_RULES[type](change, type);
  if (rule) return `${where}: change ${formatBalances(change)} is impossible: ${rule}`;
  const arithmetic = balanceProblem(run.balances, change, balances);
  if (arithmetic) return `${where}: ${arithmetic}`;
  teams.set(teamId, { lines: run.lines + 1, revision, balances });
  return null;
}

/** The end record's per-team totals against the lines' own. */
function checkTotals(value: unknown, teams: Map<string, TeamRun>): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it has no per-team totals';
  const totals = new Map(Object.entries(value as Record<string, StatementTeamTotal>));
  for (const [teamId, run] of teams) {
    const total = totals.get(teamId);
    if (!total) return `team ${teamId} has ${run.lines} lines but no totals`;
    if (total.lines !== run.lines || total.revision !== run.revision) {
      return `team ${teamId}: it counts ${String(total.lines)} lines to revision ${String(total.revision)}, the lines ${run.lines} to revision ${run.revision} (lines were dropped or added)`;
    }
    if (!isBalances(total.balances) || FIGURES.some((f) => total.balances[f] !== run.balances[f])) {
      return `team ${teamId}: it closes at ${isBalances(total.balances) ? formatBalances(total.balances) : 'no balances'}, the lines at ${formatBalances(run.balances)}`;
    }
  }
  for (const teamId of totals.keys()) if (!teams.has(teamId)) return `team ${teamId} has totals but no lines`;
  return null;
}
