import { DENSE_FEATURES, HASHED_FEATURES, type SparseFeatures } from './sentiment-features';

/** The classes a head tells apart, in the order of its weight rows. */
export const HEAD_CLASSES = ['negative', 'neutral', 'positive'] as const;

/** One language's trained weights, as train.py writes them. */
export interface HeadWeights {
  /** Multiplier of the int8 hashed weights. */
  readonly hashedScale: number;
  /** Per class, the training intercept plus the offset calibrated on validation. */
  readonly bias: readonly number[];
  /** Per class, one weight per dense feature. */
  readonly dense: readonly (readonly number[])[];
  /** Base64 of int8 weights, class after class, HASHED_FEATURES each. */
  readonly hashed: string;
}

/** A multinomial logistic regression over the sentiment features of one language. */
export class LinearHead {
  private readonly hashed: Int8Array;

  constructor(private readonly weights: HeadWeights) {
    const bytes = Buffer.from(weights.hashed, 'base64');
    if (bytes.length !== HEAD_CLASSES.length * HASHED_FEATURES)
      throw new Error(
        `head weights hold ${bytes.length} bytes, expected ${HEAD_CLASSES.length * HASHED_FEATURES}`,
      );
    this.hashed = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  /** The class probabilities (negative, neutral, positive) of a text's features. */
  probabilities(features: SparseFeatures): [number, number, number] {
    const { hashedScale, bias, dense } = this.weights;
    const logits = [bias[0], bias[1], bias[2]];
    const { indices, values } = features;
    for (let k = 0; k < 3; k++) {
      const offset = k * HASHED_FEATURES;
      let hashedSum = 0;
      let denseSum = 0;
      for (let i = 0; i < indices.length; i++) {
        const index = indices[i];
        if (index < HASHED_FEATURES) hashedSum += this.hashed[offset + index] * values[i];
        else if (index < HASHED_FEATURES + DENSE_FEATURES.length)
          denseSum += dense[k][index - HASHED_FEATURES] * values[i];
      }
      logits[k] += hashedSum * hashedScale + denseSum;
    }
    const top = Math.max(logits[0], logits[1], logits[2]);
    const e = logits.map((l) => Math.exp(l - top));
    const total = e[0] + e[1] + e[2];
    return [e[0] / total, e[1] / total, e[2] / total];
  }
}
