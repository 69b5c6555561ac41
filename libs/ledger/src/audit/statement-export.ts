import { createHmac } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { CreditBalances, StatementLine } from '@analyst/contracts';
import { HashChain } from './hash-chain';

export const STATEMENT_FORMAT = 'analyst-ledger-statement';
/** 1: end record `{ lines }`; 2: the end record also holds each team's line count, last revision and closing balances. */
export const STATEMENT_VERSION = 2;
/** Environment variable holding the key that signs (and verifies) the end record. */
export const STATEMENT_KEY_ENV = 'ANALYST_STATEMENT_KEY';
export const STATEMENT_KEY_MIN_LENGTH = 16;

/** Per team in the end record (version 2). */
export interface StatementTeamTotal {
  lines: number;
  revision: number;
  balances: CreditBalances;
}

/** HMAC-SHA256 of the chain head (the end record's hash), hex: the end record's `hmac`, outside the chain. */
export function statementHmac(key: string, head: string): string {
  return createHmac('sha256', key).update(head).digest('hex');
}

export function checkStatementKey(key: string): void {
  if (key.length < STATEMENT_KEY_MIN_LENGTH) throw new Error(`the statement key must be at least ${STATEMENT_KEY_MIN_LENGTH} characters`);
}

export interface StatementClose {
  lines: number;
  /** The end record's hash: it commits to every record before it. */
  head: string;
  /** The end record carries an HMAC of the head. */
  signed: boolean;
}

export const CSV_COLUMNS = [
  'seq',
  'teamId',
  'revision',
  'position',
  'eventId',
  'occurredAt',
  'type',
  'commandId',
  'reservationId',
  'month',
  'mapsChange',
  'adhocChange',
  'reservedChange',
  'maps',
  'adhoc',
  'reserved',
  'note',
  'prev',
  'hash',
] as const;

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Writes a hash-chained statement: a header record, one record per ledger event, and an end record
 * holding the line count and each team's closing figures, so an edited, dropped (also the last), or
 * reordered line breaks the chain or the arithmetic. A forger who recomputes the whole chain is caught
 * only by the recorded head (`ledger verify --head`) or the end record's HMAC (`key`).
 * JSONL holds the records themselves; CSV is a spreadsheet view of the lines carrying the same hashes
 * (without the header and end records, so it cannot be verified).
 */
export class StatementWriter {
  private readonly chain = new HashChain();
  private readonly out: WriteStream;
  private readonly csv: boolean;
  private readonly key: string | undefined;
  private readonly teams = new Map<string, StatementTeamTotal>();
  private seq = 0;

  constructor(
    readonly path: string,
    header: { generatedAt: string; team: string | null; headPosition: number },
    options: { key?: string } = {},
  ) {
    this.csv = path.toLowerCase().endsWith('.csv');
    if (options.key !== undefined) {
      checkStatementKey(options.key);
      if (this.csv) throw new Error('a .csv statement has no end record to sign: export .jsonl to sign the statement');
    }
    this.key = options.key;
    this.out = createWriteStream(path, { encoding: 'utf8' });
    const record = this.chain.link({ kind: 'header', format: STATEMENT_FORMAT, version: STATEMENT_VERSION, ...header });
    if (this.csv) this.out.write(`${CSV_COLUMNS.join(',')}\n`);
    else this.out.write(`${JSON.stringify(record)}\n`);
  }

  async write(line: StatementLine): Promise<void> {
    this.seq += 1;
    const team = this.teams.get(line.teamId);
    if (team) {
      team.lines += 1;
      team.revision = line.revision;
      team.balances = line.balances;
    } else {
      this.teams.set(line.teamId, { lines: 1, revision: line.revision, balances: line.balances });
    }
    const record = this.chain.link({ kind: 'line', seq: this.seq, line: line as unknown as Record<string, unknown> });
    const text = this.csv
      ? `${[
          this.seq,
          line.teamId,
          line.revision,
          line.position,
          line.eventId,
          line.occurredAt,
          line.type,
          line.commandId,
          line.reservationId,
          line.month,
          line.change.maps,
          line.change.adhoc,
          line.change.reserved,
          line.balances.maps,
          line.balances.adhoc,
          line.balances.reserved,
          line.note,
          record.prev,
          record.hash,
        ]
          .map(csvCell)
          .join(',')}\n`
      : `${JSON.stringify(record)}\n`;
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  async close(): Promise<StatementClose> {
    const teams = Object.fromEntries([...this.teams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const end = this.chain.link({ kind: 'end', lines: this.seq, teams });
    const record = this.key === undefined ? end : { ...end, hmac: statementHmac(this.key, end.hash) };
    if (!this.csv) this.out.write(`${JSON.stringify(record)}\n`);
    this.out.end();
    await once(this.out, 'finish');
    return { lines: this.seq, head: end.hash, signed: this.key !== undefined };
  }
}
