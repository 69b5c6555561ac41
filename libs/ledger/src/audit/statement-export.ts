import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { StatementLine } from '@analyst/contracts';
import { HashChain } from './hash-chain';

export const STATEMENT_FORMAT = 'analyst-ledger-statement';

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
 * holding the line count, so an edited, dropped (also the last), or reordered line breaks the chain.
 * JSONL holds the records themselves; CSV is a spreadsheet view of the lines carrying the same hashes.
 */
export class StatementWriter {
  private readonly chain = new HashChain();
  private readonly out: WriteStream;
  private readonly csv: boolean;
  private seq = 0;

  constructor(
    readonly path: string,
    header: { generatedAt: string; team: string | null; headPosition: number },
  ) {
    this.csv = path.toLowerCase().endsWith('.csv');
    this.out = createWriteStream(path, { encoding: 'utf8' });
    const record = this.chain.link({ kind: 'header', format: STATEMENT_FORMAT, version: 1, ...header });
    if (this.csv) this.out.write(`${CSV_COLUMNS.join(',')}\n`);
    else this.out.write(`${JSON.stringify(record)}\n`);
  }

  async write(line: StatementLine): Promise<void> {
    this.seq += 1;
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

  async close(): Promise<{ lines: number; head: string }> {
    const end = this.chain.link({ kind: 'end', lines: this.seq });
    if (!this.csv) this.out.write(`${JSON.stringify(end)}\n`);
    this.out.end();
    await once(this.out, 'finish');
    return { lines: this.seq, head: end.hash };
  }
}
