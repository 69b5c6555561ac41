import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { chainHash, GENESIS_HASH } from './hash-chain';
import { STATEMENT_FORMAT } from './statement-export';

export interface VerifyResult {
  ok: boolean;
  lines: number;
  /** 1-based line number in the file of the first problem. */
  failedAt: number | null;
  problem: string | null;
  head: string | null;
}

/** Checks a JSONL statement's hash chain: any edited, dropped, inserted or reordered line fails it. */
export async function verifyStatement(path: string): Promise<VerifyResult> {
  const reader = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let prev = GENESIS_HASH;
  let fileLine = 0;
  let seq = 0;
  let ended = false;
  const fail = (problem: string): VerifyResult => {
    reader.close();
    return { ok: false, lines: seq, failedAt: fileLine, problem, head: null };
  };
  for await (const text of reader) {
    fileLine += 1;
    if (text.trim() === '') continue;
    if (ended) return fail('content after the end record');
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return fail('not a JSON record');
    }
    const { hash, ...body } = record;
    if (body.prev !== prev) return fail(`does not follow the previous line (a line before it was edited, dropped or moved)`);
    if (chainHash(prev, body) !== hash) return fail('its content does not match its hash (the line was edited)');
    prev = hash as string;
    if (fileLine === 1) {
      if (body.kind !== 'header' || body.format !== STATEMENT_FORMAT) return fail(`not a ${STATEMENT_FORMAT} file: the header record is missing`);
      continue;
    }
    if (body.kind === 'line') {
      seq += 1;
      if (body.seq !== seq) return fail(`line ${String(body.seq)} found where line ${seq} belongs`);
    } else if (body.kind === 'end') {
      if (body.lines !== seq) return fail(`the end record counts ${String(body.lines)} lines but ${seq} precede it`);
      ended = true;
    } else {
      return fail(`unknown record kind ${String(body.kind)}`);
    }
  }
  if (fileLine === 0) return { ok: false, lines: 0, failedAt: null, problem: 'the file is empty', head: null };
  if (!ended) return { ok: false, lines: seq, failedAt: fileLine, problem: 'the end record is missing (lines were dropped from the end)', head: null };
  return { ok: true, lines: seq, failedAt: null, problem: null, head: prev };
}
