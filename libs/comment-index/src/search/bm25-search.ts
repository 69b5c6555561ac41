import bm25 from 'wink-bm25-text-search';
import stem from 'wink-porter2-stemmer';
import { STOPWORDS, tokenize } from '@analyst/domain-analysis';
import type { SearchDocument, SearchModel } from './search-model.port';

/** Small hand-made expansion table: a query word also finds comments using its neighbours. */
const EXPANSIONS: Record<string, string[]> = {
  price: ['cost', 'expensive', 'cheap', 'pricey', 'money'],
  cost: ['price', 'expensive', 'cheap'],
  expensive: ['price', 'pricey', 'overpriced'],
  cheap: ['price', 'affordable', 'inexpensive'],
  battery: ['charge', 'charging', 'power'],
  quality: ['build', 'durable', 'cheaply'],
  love: ['like', 'adore', 'amazing', 'great'],
  hate: ['dislike', 'awful', 'terrible', 'worst'],
  good: ['great', 'nice', 'excellent'],
  bad: ['awful', 'terrible', 'poor'],
  ship: ['shipping', 'delivery', 'arrived'],
  delivery: ['shipping', 'arrived', 'late'],
  support: ['service', 'help', 'customer'],
  fast: ['quick', 'speed'],
  slow: ['lag', 'laggy', 'speed'],
};

/** Words → porter2 stems, stopwords out: the same preparation for comments and queries. */
export function stems(text: string): string[] {
  return tokenize(text)
    .filter((t) => t.kind === 'word' && !STOPWORDS.has(t.text))
    .map((t) => stem(t.text));
}

/** Query stems plus the stems of their expansions (an expansion weighs half: it is repeated less). */
export function expandQuery(query: string): string[] {
  const words = tokenize(query)
    .filter((t) => t.kind === 'word' && !STOPWORDS.has(t.text))
    .map((t) => t.text);
  const out: string[] = [];
  for (const w of words) {
    out.push(stem(w), stem(w));
    for (const e of EXPANSIONS[w] ?? EXPANSIONS[stem(w)] ?? []) out.push(stem(e));
  }
  return out;
}

/** Share of the relevance that comes from the comment's own relevance score (the rest is BM25). */
export const OWN_RELEVANCE_SHARE = 0.2;

/**
 * Local AI search: BM25 (wink-bm25-text-search) over porter2 stems with query expansion. A comment
 * without any query stem scores 0. Otherwise relevance = 0.8 × BM25 / best BM25 + 0.2 × (its
 * relevance score − 1) / 9 (0.5 when unscored), so among lexical matches on-topic comments rank higher.
 */
export class Bm25SearchModel implements SearchModel {
  readonly name = 'local-bm25';

  async relevance(
    query: string,
    documents: readonly SearchDocument[],
    onProgress?: (fraction: number) => void,
  ): Promise<Float64Array> {
    const out = new Float64Array(documents.length);
    const expanded = expandQuery(query);
    if (expanded.length === 0 || documents.length === 0) return out;
    const engine = bm25();
    engine.defineConfig({ fldWeights: { body: 1 } });
    engine.definePrepTasks([(text) => stems(String(text))], 'body');
    // The query arrives already stemmed and expanded.
    engine.definePrepTasks([(text) => String(text).split(' ')]);
    documents.forEach((d, i) => {
      engine.addDoc({ body: d.text }, i);
      if (onProgress && i % 5000 === 0) onProgress((i / documents.length) * 0.8);
    });
    // wink needs three documents to consolidate; pad with ones no query can match.
    for (let pad = documents.length; pad < 3; pad++) engine.addDoc({ body: '' }, `pad${pad}`);
    engine.consolidate();
    const hits = engine.search(expanded.join(' '), documents.length);
    const best = hits.length > 0 ? hits[0][1] : 0;
    for (const [id, score] of hits) {
      const i = Number(id);
      if (!Number.isInteger(i) || best <= 0) continue;
      const own = documents[i].relevance;
      const ownShare = own === own ? (own - 1) / 9 : 0.5;
      out[i] = (1 - OWN_RELEVANCE_SHARE) * (score / best) + OWN_RELEVANCE_SHARE * ownShare;
    }
    onProgress?.(1);
    return out;
  }
}
