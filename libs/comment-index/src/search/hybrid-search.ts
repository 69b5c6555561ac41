import { bm25Match } from './bm25-search';
import { withOwnRelevance } from './own-relevance';
import type { SearchDocument, SearchModel } from './search-model.port';
import { dot, minilmStaticEmbedding, type StaticEmbedding } from './static-embedding';

/**
 * Cosine of the query's and the comment's static embeddings below which they are taken as
 * unrelated (semantic match 0), and at which the semantic match is full (1). Measured with
 * bench/search-paraphrase.ts on the distilled weights: see the comment-index README.
 */
export const SEMANTIC_FLOOR = 0.36;
export const SEMANTIC_FULL = 0.62;

/** The cosine rescaled so unrelated text scores 0 and a close paraphrase 1. */
export function semanticMatch(cosine: number): number {
  return Math.max(0, Math.min(1, (cosine - SEMANTIC_FLOOR) / (SEMANTIC_FULL - SEMANTIC_FLOOR)));
}

/**
 * The default AI search, on this machine: meaning (a static sentence embedding distilled from
 * all-MiniLM-L6-v2) combined with keywords (BM25 over stems). Either can carry a comment: the
 * match is 1 − (1 − semantic)(1 − lexical), so "costs an arm and a leg" matches "too expensive"
 * with no shared word, and a comment naming a rare query word matches even when its other words
 * wander. The comment's own relevance score then moves it by up to a fifth (`withOwnRelevance`).
 * Deterministic: sampling may recompute a search's matches and gets exactly the same rows.
 */
export class HybridSearchModel implements SearchModel {
  readonly name = 'local-hybrid-minilm';

  /** Without an embedding, the committed one, loaded at the first search (a process that never searches never holds it). */
  constructor(private readonly embedding?: StaticEmbedding) {}

  async relevance(
    query: string,
    documents: readonly SearchDocument[],
    onProgress?: (fraction: number) => void,
  ): Promise<Float64Array> {
    const out = new Float64Array(documents.length);
    const lexical = bm25Match(query, documents, onProgress && ((f) => onProgress(f / 2)));
    const embedding = this.embedding ?? (await minilmStaticEmbedding());
    const cache = new Map<string, number[]>();
    const q = embedding.embed(query, cache);
    documents.forEach((d, i) => {
      const v = q && embedding.embed(d.text, cache);
      const semantic = v ? semanticMatch(dot(q, v)) : 0;
      const match = 1 - (1 - semantic) * (1 - lexical[i]);
      out[i] = withOwnRelevance(match, d.relevance);
      if (onProgress && i % 5000 === 0) onProgress(0.5 + i / documents.length / 2);
    });
    onProgress?.(1);
    return out;
  }
}
