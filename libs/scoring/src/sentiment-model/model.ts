import { BUCKETS, DENSE_FEATURES, type Features } from './features';
import { TRAINED } from './weights';

// The trained reading: a 3-class logistic regression (negative, neutral, positive) over the hashed and
// dense features, read as P(positive) − P(negative). The weights ship as 16-bit integers in base64
// (weights.ts, written by tools/train-sentiment/train.py) and are widened once, at first use, into
// one Float32Array laid out bucket by bucket so a feature reads its three weights side by side.

const CLASSES = 3;

interface LoadedModel {
  hashed: Float32Array;
  dense: Float32Array;
  bias: Float32Array;
}

let loaded: LoadedModel | null = null;

function load(): LoadedModel {
  if (TRAINED.hashBits !== Math.log2(BUCKETS) || TRAINED.dense.length !== CLASSES * DENSE_FEATURES)
    throw new Error('sentiment model weights do not match the feature layout (retrain)');
  const bytes = Buffer.from(TRAINED.hashedBase64, 'base64');
  const quantised = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
  if (quantised.length !== BUCKETS * CLASSES)
    throw new Error('sentiment model weights have the wrong size (retrain)');
  const hashed = new Float32Array(quantised.length);
  for (let i = 0; i < quantised.length; i++) hashed[i] = quantised[i] * TRAINED.hashedScale;
  return { hashed, dense: Float32Array.from(TRAINED.dense), bias: Float32Array.from(TRAINED.bias) };
}

function model(): LoadedModel {
  if (loaded === null) loaded = load();
  return loaded;
}

const logits = new Float64Array(CLASSES);

/** P(positive) − P(negative) (-1..1) of a text's features (extractFeatures). */
export function modelReading(features: Features): number {
  const m = model();
  for (let k = 0; k < CLASSES; k++) {
    let z = 0;
    for (let j = 0; j < DENSE_FEATURES; j++) z += m.dense[k * DENSE_FEATURES + j] * features.dense[j];
    logits[k] = z;
  }
  if (features.count > 0) {
    // Each hashed feature counts 1/sqrt(n), as in training: long texts do not shout louder.
    const w = 1 / Math.sqrt(features.count);
    let z0 = 0;
    let z1 = 0;
    let z2 = 0;
    const buckets = features.buckets;
    for (let i = 0; i < features.count; i++) {
      const at = buckets[i] * CLASSES;
      z0 += m.hashed[at];
      z1 += m.hashed[at + 1];
      z2 += m.hashed[at + 2];
    }
    logits[0] += z0 * w;
    logits[1] += z1 * w;
    logits[2] += z2 * w;
  }
  let max = -Infinity;
  for (let k = 0; k < CLASSES; k++) {
    logits[k] += m.bias[k];
    if (logits[k] > max) max = logits[k];
  }
  const e0 = Math.exp(logits[0] - max);
  const e1 = Math.exp(logits[1] - max);
  const e2 = Math.exp(logits[2] - max);
  return (e2 - e0) / (e0 + e1 + e2);
}
