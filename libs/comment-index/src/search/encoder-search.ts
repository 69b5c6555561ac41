import { bm25Match, stems } from './bm25-search';
import { dotQuantized, quantizeAll } from './quantized-vectors';
import { calibratedRelevance, SEARCH_CALIBRATION, type SearchCalibration } from './search-calibration';
import type { SearchDocument, SearchModel } from './search-model.port';
import type { EncoderSource } from './sentence-encoder.port';

/** Comments per encoder call for comments that come without a stored vector. */
const EMBED_BATCH = 64;

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
  ) {}

  async relevance(
    query: string,
    documents: readonly SearchDocument[],
    onProgress?: (fraction: number) => void,
  ): Promise<Float64Array> {
    const out = new Float64Array(documents.length);
    // A query of stopwords only ("it is what it is") asks for nothing a comment could match.
    if (stems(query).length === 0 || documents.length === 0) return out;
    const encoder = await this.encoder();
    if (!encoder)
      throw new Error(
        'the AI search needs the sentence encoder, and this process has none (see ANALYST_ENCODER)',
      );
    const keywords = bm25Match(query, documents);
    const [q] = await encoder.embed([query]);
    const missing: number[] = [];
    documents.forEach((d, i) => {
      if (d.vector) out[i] = calibratedRelevance(dotQuantized(q, d.vector, 0), keywords[i], this.calibration);
      else if (d.text.trim() !== '') missing.push(i);
    });
    for (let from = 0; from < missing.length; from += EMBED_BATCH) {
      const batch = missing.slice(from, from + EMBED_BATCH);
      const vectors = await encoder.embed(batch.map((i) => documents[i].text));
      // Quantized like stored vectors, so a comment reads the same whichever way its vector came.
      const quantized = quantizeAll(vectors, encoder.dims);
      batch.forEach(
        (i, k) =>
          (out[i] = calibratedRelevance(
            dotQuantized(q, quantized, k * encoder.dims),
            keywords[i],
            this.calibration,
          )),
      );
      onProgress?.(Math.min(1, (from + batch.length) / missing.length));
    }
    onProgress?.(1);
    return out;
  }
}
