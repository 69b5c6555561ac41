import { STOPWORDS, tokenize } from '@analyst/domain-analysis';
import { teacherWords, WordPiece } from './wordpiece';

/**
 * A text's meaning as one unit vector: the mean of its content words' WordPiece token vectors,
 * distilled from all-MiniLM-L6-v2 (tools/distill-embeddings/). Stopwords are left out, as in the
 * lexical search, so "too expensive" and "expensive" mean the same. Pure arithmetic on the
 * committed weights: the same text always gives the same vector, on any machine, offline.
 */
export class StaticEmbedding {
  readonly dims: number;
  private readonly vectors: Int8Array;
  private readonly scales: Float32Array;
  private readonly wordPiece: WordPiece;

  constructor(weights: {
    tokens: readonly string[];
    vectors: Int8Array;
    scales: Float32Array;
    dims: number;
  }) {
    if (
      weights.vectors.length !== weights.tokens.length * weights.dims ||
      weights.scales.length !== weights.tokens.length
    )
      throw new Error('static embedding weights do not match their vocabulary');
    this.dims = weights.dims;
    this.vectors = weights.vectors;
    this.scales = weights.scales;
    this.wordPiece = new WordPiece(weights.tokens);
  }

  /** Token rows of the text's content words, in order (a repeated word counts again). */
  rowsOf(text: string, cache?: Map<string, number[]>): number[] {
    const rows: number[] = [];
    for (const token of tokenize(text)) {
      if (token.kind !== 'word' || STOPWORDS.has(token.text)) continue;
      let pieces = cache?.get(token.text);
      if (!pieces) {
        pieces = teacherWords(token.text).flatMap((w) => this.wordPiece.pieces(w));
        cache?.set(token.text, pieces);
      }
      for (const r of pieces) rows.push(r);
    }
    return rows;
  }

  /** The unit vector of the text, or null when no content word of it is in the vocabulary. */
  embed(text: string, cache?: Map<string, number[]>): Float64Array | null {
    const rows = this.rowsOf(text, cache);
    if (rows.length === 0) return null;
    const dims = this.dims;
    const sum = new Float64Array(dims);
    for (const r of rows) {
      const scale = this.scales[r];
      const base = r * dims;
      for (let d = 0; d < dims; d++) sum[d] += this.vectors[base + d] * scale;
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += sum[d] * sum[d];
    if (norm === 0) return null;
    const inv = 1 / Math.sqrt(norm);
    for (let d = 0; d < dims; d++) sum[d] *= inv;
    return sum;
  }
}

/** Cosine of two unit vectors. */
export function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let d = 0; d < a.length; d++) s += a[d] * b[d];
  return s;
}

let loading: Promise<StaticEmbedding> | null = null;

/**
 * The committed MiniLM distillation, decoded once per process on first use (about 14 MB of int8
 * weights). Its JSON is imported here, not at the top, so a process that never runs a search never
 * reads its 20 MB; tsc copies the imported JSON into dist/, and jest loads it as it is.
 */
export function minilmStaticEmbedding(): Promise<StaticEmbedding> {
  loading ??= import('./minilm-static-embedding.weights.json').then(({ default: w }) => {
    const bytes = Buffer.from(w.vectors, 'base64');
    const scaleBytes = Buffer.from(w.scales, 'base64');
    return new StaticEmbedding({
      tokens: w.tokens.split('\n'),
      dims: w.meta.dims,
      vectors: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length),
      // Copied out: a pooled Buffer's offset need not be 4-aligned.
      scales: new Float32Array(new Uint8Array(scaleBytes).buffer),
    });
  });
  return loading;
}
