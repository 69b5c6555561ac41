import stem from 'wink-porter2-stemmer';
import { STOPWORDS, tokenize } from '@analyst/domain-analysis';
import { withOwnRelevance } from './own-relevance';
import type { SearchDocument, SearchModel } from './search-model.port';

/** Words → porter2 stems, stopwords out: the same preparation for comments and queries. */
export function stems(text: string, cache?: Map<string, string>): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) {
    if (t.kind !== 'word' || STOPWORDS.has(t.text)) continue;
    let s = cache?.get(t.text);
    if (s === undefined) {
      s = stem(t.text);
      cache?.set(t.text, s);
    }
    out.push(s);
  }
  return out;
}

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/**
 * Lexical match of every document with the query, 0..1: its BM25 score over porter2 stems divided
 * by the score of a comment of average length holding every query stem once (capped at 1). So a
 * comment with all the query's words scores about 1, one with only its rarer half about 0.5-0.7,
 * and one without any query stem 0, whatever the other comments are.
 */
export function bm25Match(
  query: string,
  documents: readonly SearchDocument[],
  onProgress?: (fraction: number) => void,
): Float64Array {
  const n = documents.length;
  const out = new Float64Array(n);
  const terms = [...new Set(stems(query))];
  if (terms.length === 0 || n === 0) return out;
  const column = new Map(terms.map((t, k) => [t, k]));
  const counts = new Uint16Array(n * terms.length);
  const lengths = new Uint32Array(n);
  const df = new Float64Array(terms.length);
  const cache = new Map<string, string>();
  let total = 0;
  documents.forEach((d, i) => {
    const docStems = stems(d.text, cache);
    lengths[i] = docStems.length;
    total += docStems.length;
    for (const s of docStems) {
      const k = column.get(s);
      if (k === undefined) continue;
      if (counts[i * terms.length + k] === 0) df[k]++;
      if (counts[i * terms.length + k] < 0xffff) counts[i * terms.length + k]++;
    }
    if (onProgress && i % 5000 === 0) onProgress(i / n);
  });
  const average = Math.max(1, total / n);
  const idf = Array.from(df, (f) => Math.log(1 + (n - f + 0.5) / (f + 0.5)));
  const ideal = idf.reduce((a, b) => a + b, 0);
  for (let i = 0; i < n; i++) {
    let score = 0;
    const norm = K1 * (1 - B + (B * lengths[i]) / average);
    for (let k = 0; k < terms.length; k++) {
      const tf = counts[i * terms.length + k];
      if (tf > 0) score += (idf[k] * tf * (K1 + 1)) / (tf + norm);
    }
    out[i] = Math.min(1, score / ideal);
  }
  onProgress?.(1);
  return out;
}

/**
 * Keyword-only AI search: the BM25 match with the comment's own relevance score (see
 * `withOwnRelevance`). The AI search of a service whose encoder is off (ANALYST_ENCODER=off), and
 * the baseline the paraphrase benchmark compares against; the default is `EncoderSearchModel`.
 */
export class Bm25SearchModel implements SearchModel {
  readonly name = 'local-bm25';

  async relevance(
    query: string,
    documents: readonly SearchDocument[],
    onProgress?: (fraction: number) => void,
  ): Promise<Float64Array> {
    const match = bm25Match(query, documents, onProgress);
    return match.map((m, i) => withOwnRelevance(m, documents[i].relevance));
  }
}
