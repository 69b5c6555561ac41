/** One comment as the search sees it: its text and its stored relevance score (1-10, NaN unscored). */
export interface SearchDocument {
  text: string;
  relevance: number;
}

/**
 * Scores every selected comment against a query: relevance 0..1 per document, in input order. The
 * job keeps comments at or above `minRelevance`. The local default needs no network.
 */
export interface SearchModel {
  readonly name: string;
  relevance(
    query: string,
    documents: readonly SearchDocument[],
    onProgress?: (fraction: number) => void,
  ): Promise<Float64Array>;
}

export const SEARCH_MODEL = Symbol('SearchModel');
