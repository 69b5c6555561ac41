import * as commentIndex from '@analyst/comment-index';

/**
 * The `minRelevance` an AI search uses when the request names none: the library's
 * `DEFAULT_MIN_RELEVANCE` once it exports one, else 0.3, the default `POST /analyses` applies today.
 */
export const defaultMinRelevance = (): number => {
  const exported = (commentIndex as unknown as Record<string, unknown>).DEFAULT_MIN_RELEVANCE;
  return typeof exported === 'number' ? exported : 0.3;
};

export interface BenchModel {
  /** As printed and written to --json. */
  name: string;
  create: () => commentIndex.SearchModel | Promise<commentIndex.SearchModel>;
  /** Its own default threshold where it differs from the search's. */
  minRelevance?: number;
}

/** The models the bench runs, in order; a new model is one line here. */
export const BENCH_MODELS: readonly BenchModel[] = [
  { name: 'hybrid-static-table', create: () => new commentIndex.HybridSearchModel() },
  { name: 'bm25-alone', create: () => new commentIndex.Bm25SearchModel() },
];
