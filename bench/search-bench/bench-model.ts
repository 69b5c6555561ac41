import * as commentIndex from '@analyst/comment-index';

/** A search model as the bench runs it. */
export interface BenchModel {
  /** As printed, and as --models and --json name it. */
  name: string;
  create: () => commentIndex.SearchModel | Promise<commentIndex.SearchModel>;
  /** Its own default threshold where it differs from the search's (`defaultMinRelevance`). */
  minRelevance?: number;
  /**
   * For a model that reads stored vectors: each text's vector as the service stores it. The
   * harness asks once per distinct comment and hands the vectors in, as a search over comments
   * embedded at ingest.
   */
  storedVectors?: (texts: readonly string[]) => Promise<Int8Array[]>;
  /** Frees what it loaded, after its run. */
  close?: () => Promise<void>;
}

/**
 * The `minRelevance` an AI search uses when the request names none: the library's
 * `DEFAULT_MIN_RELEVANCE` once it exports one, else 0.3, the default `POST /analyses` applies today.
 */
export const defaultMinRelevance = (): number => {
  const exported = (commentIndex as unknown as Record<string, unknown>).DEFAULT_MIN_RELEVANCE;
  return typeof exported === 'number' ? exported : 0.3;
};

/** Each distinct text embedded once per run: the retrieval pool and the sections share vectors. */
export function cachedVectors(
  storedVectors: (texts: readonly string[]) => Promise<Int8Array[]>,
): (texts: readonly string[]) => Promise<Int8Array[]> {
  const cache = new Map<string, Int8Array>();
  return async (texts) => {
    const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
    if (missing.length > 0) {
      const vectors = await storedVectors(missing);
      missing.forEach((t, i) => cache.set(t, vectors[i]));
    }
    return texts.map((t) => cache.get(t)!);
  };
}
