/**
 * What the AI search needs of a sentence encoder: one L2-normalised vector per text, in order. The
 * local one is `@analyst/encoder` (all-MiniLM-L6-v2 int8 on onnxruntime); this library depends on
 * the shape only, so it never loads a model itself.
 */
export interface SentenceEncoder {
  /** Names the weights: stored vectors of another model are never compared with this one's. */
  readonly model: string;
  readonly dims: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** The encoder, loaded on first use (null: none in this process, e.g. `ANALYST_ENCODER=off`). */
export type EncoderSource = () => Promise<SentenceEncoder | null>;
