import { BUCKET_KEYS, CUTOFFS, bucketOf, type Dimension, type ScoreVersion } from '@analyst/contracts';

/**
 * `bucketOf` as a lookup on floor(2 · score). Every cutoff sits on a multiple of 0.5, so the bucket
 * is constant on each half-unit step and doubling a float is exact: the table gives the same answer
 * as `bucketOf` for every score. Rollups bucket 5M readings per 1M comments, and on real (spread)
 * scores the cutoff comparisons mispredict often enough to dominate the loop; a load does not.
 */
export const BUCKET_TABLE_MAX_INDEX = 20;

for (const [name, cutoff] of Object.entries(CUTOFFS)) {
  if (!Number.isInteger(cutoff * 2))
    throw new Error(`bucket table needs half-unit cutoffs; ${name} is ${cutoff}`);
}

/** Entry k holds `offset` + the BUCKET_KEYS index of scores in [k/2, (k+1)/2); the ends take everything beyond. */
export function bucketTable(dimension: Dimension, version: ScoreVersion, offset = 0): Uint8Array {
  const table = new Uint8Array(BUCKET_TABLE_MAX_INDEX + 1);
  for (let k = 0; k <= BUCKET_TABLE_MAX_INDEX; k++)
    table[k] = offset + BUCKET_KEYS.indexOf(bucketOf(dimension, k / 2, version));
  return table;
}

/** The table index of a score (not NaN): floor(2x) clamped to the table. */
export function bucketSlot(score: number): number {
  const k = Math.floor(score * 2);
  return k < 0 ? 0 : k > BUCKET_TABLE_MAX_INDEX ? BUCKET_TABLE_MAX_INDEX : k;
}
