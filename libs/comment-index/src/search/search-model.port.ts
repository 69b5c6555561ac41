/** One comment as the search sees it: its text and its stored relevance score (1-10, NaN unscored). */
export interface SearchDocument {
  text: string;
  relevance: number;
  /** Its stored sentence vector (int8, `quantized-vectors.ts`), when the caller read one. */
  vector?: Int8Array | null;
}

/**
 * Scores every selected comment against a query: relevance 0..1 per document, in input order. The
 * job keeps comments at or above `minRelevance`. The local default needs no network.
 */
export interface SearchModel {
  readonly name: string;
  /** Reads the comments' stored sentence vectors (`CommentEmbeddings`) when the caller has them. */
  readonly readsStoredVectors?: boolean;
  relevance(
    query: string,
    documents: readonly SearchDocument[],
    onProgress?: (fraction: number) => void,
  ): Promise<Float64Array>;
}

export const SEARCH_MODEL = Symbol('SearchModel');
