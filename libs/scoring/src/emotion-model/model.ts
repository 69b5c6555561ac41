import { EMOTIONS, type Emotion } from '@analyst/contracts';
import { DENSE_FEATURES, HASH_BITS, type Features } from '../sentiment-model/features';
import { EMOTION_TRAINED } from './weights';

// The emotion head: a 7-class logistic regression over the sentiment model's own features, its hashed
// buckets folded to the top EMOTION_TRAINED.hashBits bits (fewer buckets, weights a quarter the size).
// The weights ship as 8-bit integers in base64 (weights.ts, written by
// tools/train-sentiment/train_emotion.py) and are widened once, at first use, bucket by bucket so a
// feature reads its seven weights side by side.

const CLASSES = EMOTIONS.length;

interface LoadedHead {
  shift: number;
  hashed: Float32Array;
  dense: Float32Array;
  bias: Float32Array;
}

let loaded: LoadedHead | null = null;

function load(): LoadedHead {
  const t = EMOTION_TRAINED;
  if (
    t.classes.length !== CLASSES ||
    t.classes.some((name, k) => name !== EMOTIONS[k]) ||
    t.dense.length !== CLASSES * DENSE_FEATURES ||
    t.hashBits > HASH_BITS
  )
    throw new Error('emotion head weights do not match the classes or the feature layout (retrain)');
  const bytes = Buffer.from(t.hashedBase64, 'base64');
  if (bytes.length !== CLASSES << t.hashBits)
    throw new Error('emotion head weights have the wrong size (retrain)');
  const quantised = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hashed = new Float32Array(quantised.length);
  for (let i = 0; i < quantised.length; i++) hashed[i] = quantised[i] * t.hashedScale;
  return {
    shift: HASH_BITS - t.hashBits,
    hashed,
    dense: Float32Array.from(t.dense),
    bias: Float32Array.from(t.bias),
  };
}

function head(): LoadedHead {
  if (loaded === null) loaded = load();
  return loaded;
}

const scores = new Float64Array(CLASSES);

/** The seven class scores (logits, in EMOTIONS order) of a text's features (extractFeatures), into a reused array. */
export function emotionScores(features: Features): Float64Array {
  const m = head();
  for (let k = 0; k < CLASSES; k++) {
    let z = m.bias[k];
    for (let j = 0; j < DENSE_FEATURES; j++) z += m.dense[k * DENSE_FEATURES + j] * features.dense[j];
    scores[k] = z;
  }
  if (features.count > 0) {
    // Each hashed feature counts 1/sqrt(n), as in training and in the sentiment model. Seven sums held
    // apart rather than an inner loop: under half the time per comment.
    const { hashed, shift } = m;
    const buckets = features.buckets;
    let z0 = 0;
    let z1 = 0;
    let z2 = 0;
    let z3 = 0;
    let z4 = 0;
    let z5 = 0;
    let z6 = 0;
    for (let i = 0; i < features.count; i++) {
      const at = (buckets[i] >>> shift) * CLASSES;
      z0 += hashed[at];
      z1 += hashed[at + 1];
      z2 += hashed[at + 2];
      z3 += hashed[at + 3];
      z4 += hashed[at + 4];
      z5 += hashed[at + 5];
      z6 += hashed[at + 6];
    }
    const w = 1 / Math.sqrt(features.count);
    scores[0] += z0 * w;
    scores[1] += z1 * w;
    scores[2] += z2 * w;
    scores[3] += z3 * w;
    scores[4] += z4 * w;
    scores[5] += z5 * w;
    scores[6] += z6 * w;
  }
  return scores;
}

/** The emotion with the highest score (the first on a tie). */
export function emotionOfFeatures(features: Features): Emotion {
  const s = emotionScores(features);
  let best = 0;
  for (let k = 1; k < CLASSES; k++) if (s[k] > s[best]) best = k;
  return EMOTIONS[best];
}
