/** A sentence encoder: text in, one fixed-size vector out, comparable by dot product. */
export interface SentenceEncoder {
  /** The weights' name (e.g. 'all-minilm-l6-v2-q'): vectors of two models are never compared. */
  readonly model: string;
  /** Components per vector (384 for both catalogue models). */
  readonly dims: number;
  /**
   * L2-normalised sentence embeddings, one per text, in order: the model's pooling (mean over the
   * attention mask for all-MiniLM-L6-v2) of its last hidden state. A text with no token (empty,
   * whitespace) gets a zero vector. The same text always gets the same vector, whatever else is in
   * the call.
   */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Stops the encoder's threads; embed rejects afterwards. */
  close(): Promise<void>;
}
