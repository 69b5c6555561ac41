import { createHmac } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { CreditBalances, StatementLine } from '@analyst/contracts';
import { canonicalStatementLine } from './canonical-statement-line';
import { HashChain } from './hash-chain';

export const STATEMENT_FORMAT = 'analyst-ledger-statement';
/** 1: end record `{ lines }`; 2: the end record also holds each team's line count, last revision and closing balances. */
export const STATEMENT_VERSION = 2;
/** Environment variable holding the key that signs (and verifies) the end record. */
export const STATEMENT_KEY_ENV = 'ANALYST_STATEMENT_KEY';
export const STATEMENT_KEY_MIN_LENGTH = 16;
/** Buffered statement text handed to the file at once (characters). */
const FLUSH_CHARS = 64 * 1024;

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
  if (key.length < STATEMENT_KEY_MIN_LENGTH)
    throw new Error(`the statement key must be at least ${STATEMENT_KEY_MIN_LENGTH} characters`);
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
  /** Rendered lines not yet handed to the file. */
  private pending = '';

  constructor(
    readonly path: string,
    header: { generatedAt: string; team: string | null; headPosition: number },
    options: { key?: string } = {},
  ) {
    this.csv = path.toLowerCase().endsWith('.csv');
    if (options.key !== undefined) {
      checkStatementKey(options.key);
      if (this.csv)
        throw new Error('a .csv statement has no end record to sign: export .jsonl to sign the statement');
    }
    this.key = options.key;
    this.out = createWriteStream(path, { encoding: 'utf8' });
    const record = this.chain.link({
      kind: 'header',
      format: STATEMENT_FORMAT,
      version: STATEMENT_VERSION,
      ...header,
    });
    if (this.csv) this.out.write(`${CSV_COLUMNS.join(',')}\n`);
    else this.out.write(`${JSON.stringify(record)}\n`);
  }

  /**
   * Adds one line. Lines are rendered into a buffer written out every ~64 KiB, so a million lines
   * cost a few hundred stream writes, not a million; the returned promise (only when the buffer was
   * handed to the file and the stream asks to wait) is the back-pressure to honour.
   */
  write(line: StatementLine): Promise<void> | undefined {
    this.seq += 1;
    const team = this.teams.get(line.teamId);
    if (team) {
      team.lines += 1;
      team.revision = line.revision;
      team.balances = line.balances;
    } else {
      this.teams.set(line.teamId, { lines: 1, revision: line.revision, balances: line.balances });
    }
    const seq = this.seq;
    const canonical = canonicalStatementLine(line);
    // canonicalJson({ kind, seq, line, prev }): keys sorted as kind, line, prev, seq.
    const { prev, hash } = this.chain.linkRendered(
      (p) => `{"kind":"line","line":${canonical},"prev":"${p}","seq":${seq}}`,
    );
    this.pending += this.csv
      ? `${[
          seq,
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
          prev,
          hash,
        ]
          .map(csvCell)
          .join(',')}\n`
      : // The same bytes as JSON.stringify({ kind, seq, line, prev, hash }).
        `{"kind":"line","seq":${seq},"line":${JSON.stringify(line)},"prev":"${prev}","hash":"${hash}"}\n`;
    return this.pending.length >= FLUSH_CHARS ? this.flush() : undefined;
  }

  private flush(): Promise<void> | undefined {
    const text = this.pending;
    this.pending = '';
    if (text.length === 0 || this.out.write(text)) return undefined;
    return once(this.out, 'drain').then(() => undefined);
  }

  async close(): Promise<StatementClose> {
    const teams = Object.fromEntries(
      [...this.teams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    const end = this.chain.link({ kind: 'end', lines: this.seq, teams });
    const record = this.key === undefined ? end : { ...end, hmac: statementHmac(this.key, end.hash) };
    await this.flush();
    if (!this.csv) this.out.write(`${JSON.stringify(record)}\n`);
    this.out.end();
    await once(this.out, 'finish');
    return { lines: this.seq, head: end.hash, signed: this.key !== undefined };
  }
}
