import type { SearchDocument, SearchModel } from '@analyst/comment-index';

export interface RetrievalQuery {
  text: string;
  /** Indices of the comments that mean it. */
  relevant: number[];
  /** Indices left out of its ranking (labelled for it, but sharing a stem with it). */
  ignored: number[];
}

export interface RetrievalFigures {
  queries: number;
  relevant: number;
  recallAt10: number;
  mrr: number;
  seconds: number;
}

/** Rank of each relevant document (1 = best); a document scored 0 is not found. Ties go to the earlier document. */
export function ranks(
  scores: Float64Array,
  relevant: readonly number[],
  ignored: readonly number[] = [],
): number[] {
  const skip = new Set(ignored);
  return relevant.map((r) => {
    if (!(scores[r] > 0)) return Infinity;
    let above = 0;
    for (let i = 0; i < scores.length; i++)
      if (!skip.has(i) && (scores[i] > scores[r] || (scores[i] === scores[r] && i < r))) above++;
    return above + 1;
  });
}

/**
 * Each query against every document: the share of all relevant comments ranked in the top 10
 * (pooled over queries), and the mean over queries of 1 / the best relevant comment's rank.
 */
export async function retrieval(
  model: SearchModel,
  queries: readonly RetrievalQuery[],
  docs: readonly SearchDocument[],
): Promise<RetrievalFigures> {
  let found = 0;
  let total = 0;
  let reciprocal = 0;
  const started = Date.now();
  for (const q of queries) {
    const r = ranks(await model.relevance(q.text, docs), q.relevant, q.ignored);
    found += r.filter((x) => x <= 10).length;
    total += q.relevant.length;
    reciprocal += 1 / Math.min(...r);
  }
  return {
    queries: queries.length,
    relevant: total,
    recallAt10: total ? found / total : 0,
    mrr: queries.length ? reciprocal / queries.length : 0,
    seconds: (Date.now() - started) / 1000,
  };
}
