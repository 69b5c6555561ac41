/** RFC 4180 records, as the spam benches read them: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field.length === 0) quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      if (record.some((f) => f.length > 0)) records.push(record);
      record = [];
      field = '';
    } else field += ch;
  }
  record.push(field);
  if (record.some((f) => f.length > 0)) records.push(record);
  return records;
}

/** Precision, recall and F1 from the four counts of a binary label. */
export interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export function emptyCounts(): Counts {
  return { tp: 0, fp: 0, fn: 0, tn: 0 };
}

export function count(counts: Counts, actual: boolean, flagged: boolean): void {
  counts[actual ? (flagged ? 'tp' : 'fn') : flagged ? 'fp' : 'tn']++;
}

export function figures(c: Counts): string {
  const precision = c.tp / Math.max(1, c.tp + c.fp);
  const recall = c.tp / Math.max(1, c.tp + c.fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return `precision ${precision.toFixed(4)}  recall ${recall.toFixed(4)}  F1 ${f1.toFixed(4)}  (tp ${c.tp}, fp ${c.fp}, fn ${c.fn}, tn ${c.tn})`;
}
