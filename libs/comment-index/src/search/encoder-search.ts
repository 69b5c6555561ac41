import { bm25Match, stems } from './bm25-search';
import { dotQuantized, quantizeAll } from './quantized-vectors';
import {
  calibratedRelevance,
  COSINE_PRIOR,
  SEARCH_CALIBRATION,
  selectionCosines,
  type CosinePrior,
  type SearchCalibration,
} from './search-calibration';
import type { SearchDocument, SearchModel } from './search-model.port';
import type { EncoderSource } from './sentence-encoder.port';

/** Comments per encoder call for comments that come without a stored vector (spread over its threads). */
const EMBED_BATCH = 256;

/**
 * The default AI search: meaning read by a sentence encoder (all-MiniLM-L6-v2 on this machine,
 * `@analyst/encoder`), combined with keywords (BM25 over stems), calibrated to a 0..1 relevance
 * (`search-calibration.ts`). A comment's stored vector is used when the caller read one
 * (`CommentEmbeddings`); any other comment is embedded here. Deterministic: the same comments and
 * query give the same relevances, so sampling may recompute a search's matches exactly.
 */
export class EncoderSearchModel implements SearchModel {
  readonly name = 'local-hybrid-encoder';
  readonly readsStoredVectors = true;

  constructor(
    private readonly encoder: EncoderSource,
    private readonly calibration: SearchCalibration = SEARCH_CALIBRATION,
    private readonly prior: CosinePrior = COSINE_PRIOR,
  ) {}

  async relevance(
    query: string,
    documents: readonly SearchDocument[],
    onProgress?: (fraction: number) => void,
  ): Promise<Float64Array> {
    const out = new Float64Array(documents.length);
    // A query of stopwords only ("it is what it is") asks for nothing a comment could match.
    if (stems(query).length === 0 || documents.length === 0) return out;
    const cosines = await this.cosines(query, documents, onProgress);
    const keywords = bm25Match(query, documents);
    const selection = selectionCosines(cosines, this.prior);
    cosines.forEach((c, i) => {
      out[i] = c === c ? calibratedRelevance(c, selection, keywords[i], this.calibration) : 0;
    });
    onProgress?.(1);
    return out;
  }

  /** Each comment's cosine with the query (NaN: no text); vectors quantized like stored ones, so a comment reads the same whichever way its vector came. */
  private async cosines(
    query: string,
    documents: readonly SearchDocument[],
    onProgress?: (fraction: number) => void,
  ): Promise<Float64Array> {
    const encoder = await this.encoder();
    if (!encoder)
      throw new Error(
        'the AI search needs the sentence encoder, and this process has none (see ANALYST_ENCODER)',
      );
    const [q] = await encoder.embed([query]);
    const out = new Float64Array(documents.length).fill(NaN);
    const missing: number[] = [];
    documents.forEach((d, i) => {
      if (d.vector) out[i] = dotQuantized(q, d.vector, 0);
      else if (d.text.trim() !== '') missing.push(i);
    });
    for (let from = 0; from < missing.length; from += EMBED_BATCH) {
      const batch = missing.slice(from, from + EMBED_BATCH);
      const vectors = quantizeAll(await encoder.embed(batch.map((i) => documents[i].text)), encoder.dims);
      batch.forEach((i, k) => (out[i] = dotQuantized(q, vectors, k * encoder.dims)));
      onProgress?.(Math.min(1, (from + batch.length) / missing.length));
    }
    return out;
  }
}
