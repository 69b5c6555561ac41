import { createHmac } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { CreditBalances, StatementLine } from '@analyst/contracts';
import { renderStatementLine } from './canonical-statement-line';
import { HashChain } from './hash-chain';

export const STATEMENT_FORMAT = 'analyst-ledger-statement';
/** 1: end record `{ lines }`; 2: the end record also holds each team's line count, last revision and closing balances. */
export const STATEMENT_VERSION = 2;
/** Environment variable holding the key that signs (and verifies) the end record. */
export const STATEMENT_KEY_ENV = 'ANALYST_STATEMENT_KEY';
export const STATEMENT_KEY_MIN_LENGTH = 16;
/** Statement bytes handed to the file at once. */
const CHUNK_BYTES = 1024 * 1024;
/** The file stream's buffer: a few flushes queue while the disk writes, so rendering does not wait on each one. */
const STREAM_BUFFER_BYTES = 4 * 1024 * 1024;

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

/** One statement line as a CSV row in `CSV_COLUMNS` order. */
function csvRow(seq: number, line: StatementLine, prev: string, hash: string): string {
  return `${[
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
    .join(',')}\n`;
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
  /** Rendered lines not yet handed to the file: UTF-8 in `chunk` up to `used`. */
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;

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
    this.out = createWriteStream(path, { encoding: 'utf8', highWaterMark: STREAM_BUFFER_BYTES });
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
   * Adds one line. Lines are rendered into a buffer handed to the file every ~256 KiB, so a million
   * lines cost a couple of thousand stream writes, not a million; the returned promise (only when
   * the buffer was handed to the file and the stream asks to wait) is the back-pressure to honour.
   */
  write(line: StatementLine): Promise<void> | undefined {
    this.seq += 1;
    this.count(line);
    const seq = this.seq;
    const { canonical, json } = renderStatementLine(line);
    const prev = this.chain.head;
    // canonicalJson({ kind, seq, line, prev }): keys sorted as kind, line, prev, seq.
    const hash = this.chain.linkCanonical(
      `{"kind":"line","line":${canonical},"prev":"${prev}","seq":${seq}}`,
    );
    return this.append(
      this.csv
        ? csvRow(seq, line, prev, hash)
        : // The same bytes as JSON.stringify({ kind, seq, line, prev, hash }).
          `{"kind":"line","seq":${seq},"line":${json},"prev":"${prev}","hash":"${hash}"}\n`,
    );
  }

  /**
   * Encodes the text into the chunk; a chunk without room for it (a UTF-16 unit is at most 3 bytes
   * of UTF-8) is handed to the file first. Encoding line by line into one buffer spares the file
   * stream joining and encoding a long string of a thousand pieces.
   */
  private append(text: string): Promise<void> | undefined {
    const room = text.length * 3;
    let waiting: Promise<void> | undefined;
    if (this.used + room > this.chunk.length) {
      waiting = this.flush();
      this.chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room));
    }
    this.used += this.chunk.write(text, this.used, 'utf8');
    return waiting;
  }

  /** The team's line count, last revision and closing balances for the end record. */
  private count(line: StatementLine): void {
    const team = this.teams.get(line.teamId);
    if (team) {
      team.lines += 1;
      team.revision = line.revision;
      team.balances = line.balances;
    } else {
      this.teams.set(line.teamId, { lines: 1, revision: line.revision, balances: line.balances });
    }
  }

  /** Hands the chunk's bytes to the file (the stream keeps them until written: the chunk is not reused). */
  private flush(): Promise<void> | undefined {
    const bytes = this.chunk.subarray(0, this.used);
    this.chunk = this.chunk.subarray(this.used);
    this.used = 0;
    if (bytes.length === 0 || this.out.write(bytes)) return undefined;
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
