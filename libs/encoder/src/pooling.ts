import { Pooling } from './model-catalogue';

/**
 * Writes the sentence vector of one text into `out` at `offset`: the model's pooling of its last
 * hidden state (`tokens` rows of `dims`, no padding: the encoder runs one text at a time), then
 * scaled to unit length.
 */
export function poolInto(
  hidden: Float32Array,
  tokens: number,
  dims: number,
  pooling: Pooling,
  out: Float32Array,
  offset: number,
): void {
  const rows = pooling === 'cls' ? 1 : tokens;
  for (let t = 0; t < rows; t++) {
    const row = t * dims;
    for (let d = 0; d < dims; d++) out[offset + d] += hidden[row + d];
  }
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += out[offset + d] * out[offset + d];
  // The mean's division by the token count cancels in the normalisation.
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let d = 0; d < dims; d++) out[offset + d] *= scale;
}
